package io.servesim.io;

import io.servesim.metrics.RecordSink;
import java.io.IOException;

/**
 * A {@link RecordSink} that writes request records to a file; {@link #close()} flushes and
 * finishes the file (a Parquet file is unreadable until closed). {@link #accept} reports write
 * failures as {@link java.io.UncheckedIOException}.
 */
public interface RecordFileSink extends RecordSink, AutoCloseable {
    @Override
    void close() throws IOException;
}
