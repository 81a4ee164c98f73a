package io.servesim.workload.trace;

import io.servesim.engine.Request;

/**
 * Trace mode: every row arrives at its own timestamp, normalised so the first row arrives at 0
 * and gaps divided by {@code arrival_speedup_ratio} (as NVIDIA Dynamo's mocker replay). Rows stream
 * from the file one at a time; rows of a session are tagged with the session and their turn but
 * keep their timestamps (open loop).
 */
public final class TraceReplaySource extends ReplaySource {
    private final double speedupRatio;
    private final long horizonUs;
    private long firstTimestampUs = Long.MIN_VALUE;

    public TraceReplaySource(TraceReader reader, double speedupRatio, long maxRequests, long horizonUs) {
        super(reader, maxRequests);
        this.speedupRatio = speedupRatio;
        this.horizonUs = horizonUs;
    }

    @Override
    public Request next() {
        if (limitReached()) {
            return null;
        }
        TraceRow row = reader.next();
        if (row == null) {
            return null;
        }
        if (firstTimestampUs == Long.MIN_VALUE) {
            firstTimestampUs = row.timestampUs();
        }
        long arrivalUs = Math.round((row.timestampUs() - firstTimestampUs) / speedupRatio);
        if (horizonUs > 0 && arrivalUs > horizonUs) {
            return null;
        }
        return request(row, sessionOf(row), arrivalUs);
    }
}
