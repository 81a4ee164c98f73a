package io.servesim.workload.trace;

import io.servesim.engine.Request;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * Trace mode: every row that is not a follow-up turn (a row without a session, or a session's first
 * turn) arrives at its own timestamp, normalised so the first row arrives at 0 and gaps divided by
 * {@code arrival_speedup_ratio}. A follow-up turn is released a delay after its previous turn
 * completes, the delay divided by {@code arrival_speedup_ratio} too, whatever its own timestamp: as
 * NVIDIA Dynamo's mocker replays a trace (ai-dynamo/dynamo @ 0c7705a4,
 * {@code lib/mocker/src/loadgen/driver.rs}: in {@code SchedulingPolicy::Trace} a session's first turn
 * is ready at its first arrival timestamp and {@code resolve_turn} makes the next turn ready at
 * {@code now_ms + delay_after_previous_ms}; {@code lib/mocker/src/loadgen/trace.rs}
 * {@code speed_up_timing} divides both by the ratio). A dropped or rejected turn ends its session, as
 * in concurrency mode and servesim's conversations (Dynamo goes on to the next turn of a rejected one).
 *
 * <p>Rows stream from the file one at a time. A follow-up read while its previous turn is out waits in
 * its session (O(turns read ahead of their predecessor's completion)) and is injected when that turn
 * leaves; one read after its previous turn completed is released then, or when the replay reaches its
 * line if that is later (Dynamo loads the whole trace first; a file listing a session's turns together,
 * as Dynamo's and AIPerf's multi-turn traces do, replays exactly). Such released turns are merged with
 * the rows arriving at their timestamps, so {@link #next()} stays in arrival order.
 */
public final class TraceReplaySource extends ReplaySource {
    /** A follow-up turn released when its line was read. */
    private record Released(TraceRow row, TraceSession session, long arrivalUs) {
    }

    private final double speedupRatio;
    private final long horizonUs;
    private final PriorityQueue<Released> released = new PriorityQueue<>(
            Comparator.comparingLong(Released::arrivalUs).thenComparingLong(u -> u.row().lineNo()));
    private long firstTimestampUs = Long.MIN_VALUE;
    /** The next row arriving at its own timestamp, read ahead; null when none is read (yet, or any more). */
    private TraceRow ahead;
    private long aheadArrivalUs;
    /** No row arriving at its own timestamp remains (end of file, or past the horizon). */
    private boolean fileDone;
    /** Arrival of the last request {@link #next()} gave: the clock whenever it is called again. */
    private long clockUs;

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
        readAhead();
        Released first = released.peek();
        if (ahead != null && (first == null || aheadArrivalUs < first.arrivalUs())) {
            TraceRow row = ahead;
            ahead = null;
            clockUs = aheadArrivalUs;
            TraceSession s = sessionOf(row);
            if (s != null) {
                s.busy = true;
            }
            return request(row, s, aheadArrivalUs);
        }
        if (first == null) {
            return null;
        }
        released.poll();
        clockUs = first.arrivalUs();
        return request(first.row(), first.session(), first.arrivalUs());
    }

    /** Reads rows until one arrives at its own timestamp, placing the follow-up turns read on the way. */
    private void readAhead() {
        while (ahead == null && !fileDone) {
            TraceRow row = reader.next();
            if (row == null) {
                fileDone = true;
                return;
            }
            if (row.followUp()) {
                place(row, sessionOf(row));
                continue;
            }
            if (firstTimestampUs == Long.MIN_VALUE) {
                firstTimestampUs = row.timestampUs();
            }
            long arrivalUs = Math.round((row.timestampUs() - firstTimestampUs) / speedupRatio);
            if (horizonUs > 0 && arrivalUs > horizonUs) {
                fileDone = true;
                return;
            }
            ahead = row;
            aheadArrivalUs = arrivalUs;
        }
    }

    /** A follow-up turn just read: it waits for its previous turn, or is released now if that one completed. */
    private void place(TraceRow row, TraceSession s) {
        if (s.ended) {
            return;
        }
        if (s.busy || !s.waiting.isEmpty()) {
            s.waiting.add(row);
            return;
        }
        long arrivalUs = Math.max(clockUs, s.lastCompletionUs + scaled(row.delayUs()));
        if (horizonUs > 0 && arrivalUs > horizonUs) {
            s.ended = true;
            return;
        }
        s.busy = true;
        released.add(new Released(row, s, arrivalUs));
    }

    /** A turn of a session left: its next turn, if read, is released its delay after the completion. */
    @Override
    public void onLeft(Request r, long nowUs, Consumer<Request> inject) {
        long sid = r.tags().sessionId();
        if (sid < 0) {
            return;
        }
        TraceSession s = session(sid);
        s.busy = false;
        if (r.state() != Request.State.COMPLETED) {
            s.ended = true;
            s.waiting.clear();
            return;
        }
        s.lastCompletionUs = nowUs;
        TraceRow next = s.waiting.poll();
        if (next == null) {
            return;
        }
        long arrivalUs = nowUs + scaled(next.delayUs());
        if (limitReached() || horizonUs > 0 && arrivalUs > horizonUs) {
            s.ended = true;
            s.waiting.clear();
            return;
        }
        s.busy = true;
        inject.accept(request(next, s, arrivalUs));
    }

    private long scaled(long delayUs) {
        return Math.round(delayUs / speedupRatio);
    }
}
