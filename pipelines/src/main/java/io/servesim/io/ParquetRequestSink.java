package io.servesim.io;

import io.servesim.metrics.RequestRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Writes request rows with parquet-avro's {@link AvroParquetWriter}, Snappy-compressed (snappy-java
 * bundles its native library, so no system libraries are needed). One row object is reused: the
 * writer copies values out before {@code write} returns.
 */
final class ParquetRequestSink implements RecordFileSink {
    private final ParquetWriter<GenericRecord> writer;
    private final GenericData.Record row;

    private ParquetRequestSink(ParquetWriter<GenericRecord> writer, Schema schema) {
        this.writer = writer;
        this.row = new GenericData.Record(schema);
    }

    static ParquetRequestSink open(Path file) throws IOException {
        Schema schema = Schemas.request();
        ParquetWriter<GenericRecord> writer = AvroParquetWriter.<GenericRecord>builder(new LocalOutputFile(file))
                .withSchema(schema)
                .withDataModel(GenericData.get())
                .withCompressionCodec(CompressionCodecName.SNAPPY)
                .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                .build();
        return new ParquetRequestSink(writer, schema);
    }

    @Override
    public void accept(RequestRecord record) {
        RequestRows.fill(row, record);
        try {
            writer.write(row);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }
}
