package io.servesim.sweep;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import io.servesim.io.AvroRowEncoder;
import io.servesim.io.RowFields;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Encodes one cell's rows of one dataset into a single pipeline element: the rows' Avro binary
 * encodings, concatenated (Avro's schema-less datum format, the body of an Avro data file block).
 * A batch moves through the runner as one {@code byte[]}, so every copy, shuffle or fan-out the
 * runner performs costs one array copy per cell rather than a coder call per field of every row
 * (Flink's batch translation decodes a multi-output DoFn's whole output once per output);
 * {@link RowBatchSink} shreds it into Parquet columns straight from this encoding. Not thread-safe: one per DoFn instance.
 */
final class RowBatch {
    private final Schema schema;
    private final GenericDatumWriter<GenericRecord> writer;
    /** Rows written field by field ({@link #beginRow}); made on first use. */
    private AvroRowEncoder fields;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);
    private BinaryEncoder encoder;
    private int rows;

    RowBatch(Schema schema) {
        this.schema = schema;
        this.writer = new GenericDatumWriter<>(schema);
    }

    /**
     * Starts a row to be set field by field, in the schema's order, with no record in between (the
     * bytes {@link #add} writes for the same row); {@link #endRow} appends it.
     */
    RowFields beginRow() {
        if (fields == null) {
            fields = new AvroRowEncoder(schema);
        }
        encoder = EncoderFactory.get().binaryEncoder(bytes, encoder);
        fields.begin(encoder);
        return fields;
    }

    /** Appends the row {@link #beginRow} started (every field set). */
    void endRow() {
        fields.end();
        try {
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        rows++;
    }

    /** Appends {@code row} (which must conform to the schema). */
    void add(GenericRecord row) {
        try {
            encoder = EncoderFactory.get().binaryEncoder(bytes, encoder);
            writer.write(row, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        rows++;
    }

    /** Rows appended since the last {@link #take}. */
    int size() {
        return rows;
    }

    /** The encoded rows so far; the batch starts empty again. */
    byte[] take() {
        byte[] out = bytes.toByteArray();
        clear();
        return out;
    }

    /**
     * Drops the rows appended since the last {@link #take}, and any part of a row a failure left in
     * the encoder's own buffer: a reused encoder would flush those bytes ahead of the next row.
     */
    void clear() {
        bytes.reset();
        encoder = null;
        rows = 0;
    }
}
