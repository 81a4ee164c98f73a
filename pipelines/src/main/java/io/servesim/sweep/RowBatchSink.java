package io.servesim.sweep;

import io.servesim.io.ParquetWriters;
import io.servesim.io.StreamOutputFile;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.beam.sdk.io.FileIO;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;

/**
 * A {@code FileIO} sink writing {@link RowBatch} elements as one Parquet file: each batch (one
 * cell's rows of one dataset) is decoded row by row into one reused record, which the Parquet
 * writer shreds into its column buffers before returning, so reuse is safe.
 *
 * <p>It opens its writer through {@link ParquetWriters} rather than being Beam's
 * {@code ParquetIO.sink}, which builds each writer from a default Hadoop {@code Configuration} and
 * so parses Hadoop's {@code core-default.xml} once per file. FileIO still creates, names and commits
 * the file.
 */
final class RowBatchSink implements FileIO.Sink<byte[]> {
    private static final long serialVersionUID = 2L;
    private final String schemaJson;
    private transient ParquetWriter<GenericRecord> writer;
    private transient GenericDatumReader<GenericRecord> reader;
    private transient BinaryDecoder decoder;
    private transient GenericRecord reused;

    /** {@code schemaJson}: the dataset's Avro schema as JSON. */
    RowBatchSink(String schemaJson) {
        this.schemaJson = schemaJson;
    }

    @Override
    public void open(WritableByteChannel channel) throws IOException {
        Schema schema = new Schema.Parser().parse(schemaJson);
        reader = new GenericDatumReader<>(schema);
        writer = ParquetWriters.open(new StreamOutputFile(Channels.newOutputStream(channel), schema.getName()),
                schema, ParquetFileWriter.Mode.CREATE);
    }

    @Override
    public void write(byte[] batch) throws IOException {
        decoder = DecoderFactory.get().binaryDecoder(batch, decoder);
        while (!decoder.isEnd()) {
            reused = reader.read(reused, decoder);
            writer.write(reused);
        }
    }

    /** Writes the footer; FileIO closes the channel after this. */
    @Override
    public void flush() throws IOException {
        writer.close();
    }
}
