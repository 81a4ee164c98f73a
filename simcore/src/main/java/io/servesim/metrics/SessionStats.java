package io.servesim.metrics;

import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.util.Map;
import java.util.TreeMap;

/**
 * Forwards session records to a sink and aggregates them per client into {@link SessionSummary}s.
 * Keeps three longs per completed session (for exact percentiles) and O(1) per client otherwise.
 */
public final class SessionStats implements SessionSink {
    private final SessionSink downstream;
    private final Map<String, Client> clients = new TreeMap<>();

    public SessionStats(SessionSink downstream) {
        this.downstream = downstream;
    }

    @Override
    public void accept(SessionRecord r) {
        clients.computeIfAbsent(r.clientId(), k -> new Client()).add(r);
        downstream.accept(r);
    }

    /** Per-client summaries, by client id. */
    public Map<String, SessionSummary> byClient() {
        Map<String, SessionSummary> out = new TreeMap<>();
        clients.forEach((id, c) -> out.put(id, c.summary()));
        return out;
    }

    private static final class Client {
        final LongArrayList e2eUs = new LongArrayList();
        final LongArrayList criticalUs = new LongArrayList();
        final LongArrayList sumUs = new LongArrayList();
        long sessions;
        long completed;
        long cutByHorizon;
        long cutByLimit;
        long dropped;
        long rejected;
        double steps;
        double llmCalls;
        double toolCalls;
        double toolWaitUs;
        double iterations;
        double fanOut;
        double queuedFraction;

        void add(SessionRecord r) {
            sessions++;
            switch (r.status()) {
                case SessionRecord.COMPLETED -> {
                    completed++;
                    e2eUs.add(r.e2eUs());
                    criticalUs.add(r.criticalPathUs());
                    sumUs.add(r.stepLatencySumUs());
                }
                case SessionRecord.CUT_BY_HORIZON -> cutByHorizon++;
                case SessionRecord.CUT_BY_LIMIT -> cutByLimit++;
                case SessionRecord.DROPPED -> dropped++;
                case SessionRecord.REJECTED -> rejected++;
                default -> throw new IllegalArgumentException("unknown session status " + r.status());
            }
            steps += r.steps();
            llmCalls += r.llmCalls();
            toolCalls += r.toolCalls();
            toolWaitUs += r.toolWaitUs();
            iterations += r.loopIterations();
            fanOut += r.fanOutCompleted();
            queuedFraction += r.queuedFraction();
        }

        SessionSummary summary() {
            double n = sessions;
            return new SessionSummary(sessions, completed, cutByHorizon, cutByLimit, dropped, rejected,
                    Distribution.ofMicros(Percentiles.of(e2eUs)), Distribution.ofMicros(Percentiles.of(criticalUs)),
                    Distribution.ofMicros(Percentiles.of(sumUs)), steps / n, llmCalls / n, toolCalls / n,
                    toolWaitUs / n / 1e3, iterations / n, fanOut / n, queuedFraction / n);
        }
    }
}
