package io.servesim.io;

import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;

/**
 * Every Parquet file servesim writes is opened here, with parquet-avro's {@link AvroParquetWriter}
 * for rows held as records, or with {@link EncodedRowWriteSupport} for rows still in their Avro
 * binary encoding (a sweep's row batches), which gives the same file:
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
        return configure(AvroParquetWriter.<GenericRecord>builder(file).withSchema(schema).withDataModel(GenericData.get()), mode);
    }

    /**
     * A writer of rows with {@code schema} to {@code file}, each written as the decoder positioned
     * at its Avro binary encoding ({@link EncodedRowWriteSupport}); {@code mode} as in {@link #open}.
     */
    public static ParquetWriter<BinaryDecoder> openEncoded(OutputFile file, Schema schema, ParquetFileWriter.Mode mode)
            throws IOException {
        return configure(new EncodedBuilder(file, new EncodedRowWriteSupport(schema)), mode);
    }

    private static <T, B extends ParquetWriter.Builder<T, B>> ParquetWriter<T> configure(B builder, ParquetFileWriter.Mode mode)
            throws IOException {
        return builder.withConf(new Configuration(false))
                .withCompressionCodec(CompressionCodecName.SNAPPY)
                .withWriteMode(mode)
                .build();
    }

    private static final class EncodedBuilder extends ParquetWriter.Builder<BinaryDecoder, EncodedBuilder> {
        private final EncodedRowWriteSupport support;

        EncodedBuilder(OutputFile file, EncodedRowWriteSupport support) {
            super(file);
            this.support = support;
        }

        @Override
        protected EncodedBuilder self() {
            return this;
        }

        @Override
        protected WriteSupport<BinaryDecoder> getWriteSupport(Configuration conf) {
            return support;
        }
    }
}
