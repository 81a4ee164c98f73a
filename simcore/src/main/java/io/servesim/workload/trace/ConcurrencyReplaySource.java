package io.servesim.workload.trace;

import io.servesim.engine.Request;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * Concurrency mode (closed loop, as NVIDIA Dynamo mocker replay's concurrency mode): timestamps
 * are ignored; up to {@code max_in_flight} requests are resident. The first ones arrive at 0;
 * whenever a request leaves (completed or dropped), the next eligible row arrives at that moment,
 * its arrival time stamped at admission.
 *
 * <p>Sessions: a row whose session has a turn in flight waits (in file order) until that turn
 * completes; it then arrives at completion + its {@code delay}, ahead of fresh rows, and holds its
 * slot during the delay. A dropped turn ends its session: its later rows are not replayed. Rows
 * of other sessions and sessionless rows are not held back by a waiting turn.
 */
public final class ConcurrencyReplaySource extends ReplaySource {
    private record Unlocked(TraceRow row, TraceSession session, long readyUs) {
    }

    private final int maxInFlight;
    private final ArrayDeque<Unlocked> unlocked = new ArrayDeque<>();
    private int inFlight;

    public ConcurrencyReplaySource(TraceReader reader, int maxInFlight, long maxRequests) {
        super(reader, maxRequests);
        this.maxInFlight = maxInFlight;
    }

    /** The initial fill, all at time 0; later requests come through {@link #onLeft}. */
    @Override
    public Request next() {
        if (inFlight >= maxInFlight) {
            return null;
        }
        Request r = take(0);
        if (r != null) {
            inFlight++;
        }
        return r;
    }

    @Override
    public void onLeft(Request r, long nowUs, Consumer<Request> inject) {
        inFlight--;
        long sid = r.tags().sessionId();
        if (sid >= 0) {
            TraceSession s = session(sid);
            s.busy = false;
            if (r.state() == Request.State.COMPLETED) {
                s.lastCompletionUs = nowUs;
                TraceRow next = s.waiting.poll();
                if (next != null) {
                    s.busy = true;
                    unlocked.add(new Unlocked(next, s, nowUs + next.delayUs()));
                }
            } else {
                s.ended = true;
                s.waiting.clear();
            }
        }
        while (inFlight < maxInFlight) {
            Request q = take(nowUs);
            if (q == null) {
                return;
            }
            inFlight++;
            inject.accept(q);
        }
    }

    /** The next eligible request arriving at or after {@code nowUs}, or null (none now, or the end). */
    private Request take(long nowUs) {
        if (limitReached()) {
            return null;
        }
        Unlocked u = unlocked.poll();
        if (u != null) {
            return request(u.row(), u.session(), Math.max(nowUs, u.readyUs()));
        }
        while (true) {
            TraceRow row = reader.next();
            if (row == null) {
                return null;
            }
            TraceSession s = sessionOf(row);
            if (s == null) {
                return request(row, null, nowUs);
            }
            if (s.ended) {
                continue;
            }
            if (s.busy || !s.waiting.isEmpty()) {
                s.waiting.add(row);
                continue;
            }
            s.busy = true;
            long readyUs = s.lastCompletionUs < 0 ? nowUs : Math.max(nowUs, s.lastCompletionUs + row.delayUs());
            return request(row, s, readyUs);
        }
    }
}
