package io.servesim.sweep;

import java.io.IOException;
import java.nio.channels.WritableByteChannel;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.io.FileIO;
import org.apache.beam.sdk.io.parquet.ParquetIO;

/**
 * Beam's {@link ParquetIO#sink} for elements that are batches of rows: a cell's rows travel
 * through the pipeline as one element (thousands of request rows per cell), so the runner's
 * per-element costs (coder calls, DirectRunner immutability checks, shuffle records) are paid once
 * per cell instead of once per request. Each row is still written by ParquetIO's own sink.
 */
final class RowBatchSink implements FileIO.Sink<List<GenericRecord>> {
    private static final long serialVersionUID = 1L;
    private final ParquetIO.Sink rows;

    RowBatchSink(Schema schema) {
        this.rows = ParquetIO.sink(schema);
    }

    @Override
    public void open(WritableByteChannel channel) throws IOException {
        rows.open(channel);
    }

    @Override
    public void write(List<GenericRecord> batch) throws IOException {
        for (GenericRecord row : batch) {
            rows.write(row);
        }
    }

    @Override
    public void flush() throws IOException {
        rows.flush();
    }
}
