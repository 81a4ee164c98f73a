package io.servesim.io;

import io.servesim.metrics.RecordSink;
import io.servesim.metrics.ReplicaCounts;
import io.servesim.metrics.RequestRecord;
import io.servesim.metrics.SessionRecord;
import io.servesim.metrics.SessionSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.function.BiConsumer;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Records the kernel streams, written to a Parquet or CSV file as they arrive: request records
 * ({@code schemas/request.avsc}, {@code servesim run --requests-out}) and agentic session records
 * ({@code schemas/session.avsc}, {@code --sessions-out}); and, after a run, its replica timeline
 * ({@code schemas/scaling.avsc}, {@code --scaling-out}). One row object is reused; write failures
 * surface as {@link UncheckedIOException}.
 *
 * @param <T> the record type
 */
public class RecordFile<T> implements AutoCloseable {
    private final RowFile file;
    private final BiConsumer<GenericRecord, T> fill;
    private final GenericData.Record row;

    private RecordFile(RowFile file, BiConsumer<GenericRecord, T> fill) {
        this.file = file;
        this.fill = fill;
        this.row = new GenericData.Record(file.schema());
    }

    /** Request records to {@code file} (.parquet or .csv). */
    public static Requests requests(Path file) {
        return new Requests(RowFiles.open(file, Schemas.request(), "--requests-out"));
    }

    /** Session records to {@code file} (.parquet or .csv). */
    public static Sessions sessions(Path file) {
        return new Sessions(RowFiles.open(file, Schemas.session(), "--sessions-out"));
    }

    /** Replica timeline rows to {@code file} (.parquet or .csv). */
    public static RecordFile<ReplicaCounts> scaling(Path file) {
        return new RecordFile<>(RowFiles.open(file, Schemas.scaling(), "--scaling-out"), ScalingRows::fill);
    }

    /** Converts and appends one record. */
    public final void write(T record) {
        fill.accept(row, record);
        try {
            file.write(row);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public final void close() throws IOException {
        file.close();
    }

    /** A request-record file, usable as the run's {@link RecordSink}. */
    public static final class Requests extends RecordFile<RequestRecord> implements RecordSink {
        private Requests(RowFile file) {
            super(file, (row, r) -> RequestRows.fill(RowFields.of(row), r));
        }

        @Override
        public void accept(RequestRecord record) {
            write(record);
        }
    }

    /** A session-record file, usable as the run's {@link SessionSink}. */
    public static final class Sessions extends RecordFile<SessionRecord> implements SessionSink {
        private Sessions(RowFile file) {
            super(file, SessionRows::fill);
        }

        @Override
        public void accept(SessionRecord record) {
            write(record);
        }
    }
}
