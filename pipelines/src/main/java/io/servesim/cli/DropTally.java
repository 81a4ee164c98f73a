package io.servesim.cli;

import io.servesim.metrics.RecordSink;
import io.servesim.metrics.RequestRecord;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * Counts why requests were dropped (as unservable: {@code exceeds_max_model_len}, {@code exceeds_kv_capacity},
 * {@code never_fits}) or rejected at admission (the admission policy's reason) while passing every record on to
 * the run's own sink. {@code servesim run} puts the counts in its summary as {@code drop_reasons} when any request
 * was dropped or rejected, and fails a run in which no request completed because all were.
 */
final class DropTally implements RecordSink {
    private final RecordSink next;
    private final Map<String, Long> byReason = new TreeMap<>();
    private long refused;

    DropTally(RecordSink next) {
        this.next = next;
    }

    @Override
    public void accept(RequestRecord record) {
        if (RequestRecord.DROPPED.equals(record.status()) || RequestRecord.REJECTED.equals(record.status())) {
            byReason.merge(record.dropReason() == null ? record.status() : record.dropReason(), 1L, Long::sum);
            refused++;
        }
        next.accept(record);
    }

    /** Dropped or rejected requests per reason, by reason name. */
    Map<String, Long> byReason() {
        return byReason;
    }

    /** Requests dropped or rejected. */
    long refused() {
        return refused;
    }

    /** {@code reason count, reason count} in reason order. */
    String describe() {
        StringJoiner s = new StringJoiner(", ");
        byReason.forEach((reason, n) -> s.add(reason + " " + n));
        return s.toString();
    }
}
