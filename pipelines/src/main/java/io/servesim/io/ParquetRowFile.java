package io.servesim.io;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;

/**
 * Rows written with parquet-avro's {@link AvroParquetWriter}, Snappy-compressed (snappy-java bundles
 * its native library, so no system libraries are needed).
 */
final class ParquetRowFile implements RowFile {
    private final ParquetWriter<GenericRecord> writer;
    private final Schema schema;

    private ParquetRowFile(ParquetWriter<GenericRecord> writer, Schema schema) {
        this.writer = writer;
        this.schema = schema;
    }

    static ParquetRowFile open(Path file, Schema schema) throws IOException {
        ParquetWriter<GenericRecord> writer = ParquetWriters.open(new LocalOutputFile(file), schema, ParquetFileWriter.Mode.OVERWRITE);
        return new ParquetRowFile(writer, schema);
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public void write(GenericRecord row) throws IOException {
        writer.write(row);
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }
}
