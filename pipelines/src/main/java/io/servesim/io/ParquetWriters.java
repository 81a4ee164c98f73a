package io.servesim.io;

import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;

/**
 * Every Parquet file servesim writes is opened here, with parquet-avro's {@link AvroParquetWriter}:
 * <ul>
 *   <li>Snappy-compressed (snappy-java bundles its native library, so no system libraries are needed);</li>
 *   <li>with a bare Hadoop {@link Configuration} ({@code new Configuration(false)}): the writer only
 *       reads a few parquet-avro keys, all left at their defaults, and the default constructor parses
 *       Hadoop's {@code core-default.xml} again for every file opened;</li>
 *   <li>with Parquet's default dictionary encoding for every column. A column with about one distinct
 *       value per row (timestamps, latencies) does not pay for it past its first page: parquet-mr
 *       drops a column's dictionary for plain encoding as soon as the dictionary stops being smaller
 *       than the values (measured on the quickstart's request rows: turning dictionaries off for every
 *       long and double column saved no measurable time and grew the file 7%).</li>
 * </ul>
 */
public final class ParquetWriters {
    private ParquetWriters() {
    }

    /**
     * A writer of rows with {@code schema} to {@code file}; {@code mode} says whether an existing
     * file may be replaced ({@link ParquetFileWriter.Mode#CREATE} refuses).
     */
    public static ParquetWriter<GenericRecord> open(OutputFile file, Schema schema, ParquetFileWriter.Mode mode)
            throws IOException {
        return AvroParquetWriter.<GenericRecord>builder(file)
                .withSchema(schema)
                .withDataModel(GenericData.get())
                .withConf(new Configuration(false))
                .withCompressionCodec(CompressionCodecName.SNAPPY)
                .withWriteMode(mode)
                .build();
    }
}
