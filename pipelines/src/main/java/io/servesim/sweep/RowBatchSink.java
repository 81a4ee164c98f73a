package io.servesim.sweep;

import io.servesim.io.ParquetWriters;
import io.servesim.io.StreamOutputFile;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.beam.sdk.io.FileIO;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;

/**
 * A {@code FileIO} sink writing {@link RowBatch} elements as one Parquet file: each batch (one
 * cell's rows of one dataset) is shredded into the Parquet writer's column buffers row by row,
 * straight from its Avro binary encoding ({@link io.servesim.io.EncodedRowWriteSupport}: no
 * decoded records, and the same file parquet-avro writes from records).
 *
 * <p>It opens its writer through {@link ParquetWriters} rather than being Beam's
 * {@code ParquetIO.sink}, which builds each writer from a default Hadoop {@code Configuration} and
 * so parses Hadoop's {@code core-default.xml} once per file. FileIO still creates, names and commits
 * the file.
 */
final class RowBatchSink implements FileIO.Sink<byte[]> {
    private static final long serialVersionUID = 2L;
    private final String schemaJson;
    private transient ParquetWriter<BinaryDecoder> writer;
    private transient BinaryDecoder decoder;

    /** {@code schemaJson}: the dataset's Avro schema as JSON. */
    RowBatchSink(String schemaJson) {
        this.schemaJson = schemaJson;
    }

    @Override
    public void open(WritableByteChannel channel) throws IOException {
        Schema schema = new Schema.Parser().parse(schemaJson);
        writer = ParquetWriters.openEncoded(new StreamOutputFile(Channels.newOutputStream(channel), schema.getName()),
                schema, ParquetFileWriter.Mode.CREATE);
    }

    @Override
    public void write(byte[] batch) throws IOException {
        decoder = writeBatch(writer, batch, decoder);
    }

    /** Writes every row of an encoded {@code batch}; returns the decoder it read with, for the next batch to reuse. */
    static BinaryDecoder writeBatch(ParquetWriter<BinaryDecoder> writer, byte[] batch, BinaryDecoder reuse)
            throws IOException {
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(batch, reuse);
        while (!decoder.isEnd()) {
            writer.write(decoder);
        }
        return decoder;
    }

    /** Writes the footer; FileIO closes the channel after this. */
    @Override
    public void flush() throws IOException {
        writer.close();
    }
}
