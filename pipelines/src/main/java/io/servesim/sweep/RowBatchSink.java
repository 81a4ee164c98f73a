package io.servesim.sweep;

import java.io.IOException;
import java.nio.channels.WritableByteChannel;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.beam.sdk.io.FileIO;
import org.apache.beam.sdk.io.parquet.ParquetIO;

/**
 * Beam's {@link ParquetIO#sink} for {@link RowBatch} elements: each batch (one cell's rows of one
 * dataset) is decoded row by row into one reused record, which ParquetIO's own sink writes; the
 * Parquet writer shreds a record into its column buffers before returning, so reuse is safe.
 */
final class RowBatchSink implements FileIO.Sink<byte[]> {
    private static final long serialVersionUID = 1L;
    private final ParquetIO.Sink rows;
    private final String schemaJson;
    private transient GenericDatumReader<GenericRecord> reader;
    private transient BinaryDecoder decoder;
    private transient GenericRecord reused;

    /** {@code schemaJson}: the dataset's Avro schema as JSON. */
    RowBatchSink(String schemaJson) {
        this.rows = ParquetIO.sink(new Schema.Parser().parse(schemaJson));
        this.schemaJson = schemaJson;
    }

    @Override
    public void open(WritableByteChannel channel) throws IOException {
        reader = new GenericDatumReader<>(new Schema.Parser().parse(schemaJson));
        rows.open(channel);
    }

    @Override
    public void write(byte[] batch) throws IOException {
        decoder = DecoderFactory.get().binaryDecoder(batch, decoder);
        while (!decoder.isEnd()) {
            reused = reader.read(reused, decoder);
            rows.write(reused);
        }
    }

    @Override
    public void flush() throws IOException {
        rows.flush();
    }
}
