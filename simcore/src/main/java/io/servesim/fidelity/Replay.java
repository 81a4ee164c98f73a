package io.servesim.fidelity;

import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.metrics.RequestRecord;
import io.servesim.metrics.RunSummary;
import io.servesim.run.Simulation;
import io.servesim.workload.RequestSource;
import io.servesim.workload.trace.TraceRow;
import java.util.ArrayList;
import java.util.List;

/**
 * Replays a real run through the simulator: exactly the run's requests (real token ids, so prefix
 * caching hits what vLLM's did), arriving at their recorded {@code arrival_time_ns} (relative to the
 * first, as the {@code vllm} trace replay does), on one engine set up like the real one
 * ({@link ReplaySetup}); then pairs every simulated request with its measurement. Each call is a
 * fresh, deterministic simulation.
 *
 * @param setup   how the simulator was set up
 * @param summary the simulation's summary
 * @param rows    one row per request, in workload order
 * @param report  real against simulated statistics
 */
public record Replay(ReplaySetup setup, RunSummary summary, List<ReplayRow> rows, ComparisonReport report) {
    public Replay {
        rows = List.copyOf(rows);
    }

    /** Simulates {@code run} with {@code setup}. */
    public static Replay run(RealRun run, ReplaySetup setup) {
        List<MeasuredRequest> measured = run.measured();
        RequestRecord[] records = new RequestRecord[measured.size()];
        RunSummary summary = new Simulation(setup.sim(), new Workload(run.workload()), r -> records[(int) r.requestId()] = r).run();
        List<ReplayRow> rows = new ArrayList<>(records.length);
        for (int i = 0; i < records.length; i++) {
            rows.add(row(i, measured.get(i), records[i]));
        }
        return new Replay(setup, summary, rows, ComparisonReport.of(rows));
    }

    /**
     * The pair of request {@code i}. The simulated TTFT and E2E count from where the measured ones do: from arrival, or,
     * when the run's timestamps anchor at {@code queued_ts}, from the simulated enqueue (the same vLLM event).
     */
    private static ReplayRow row(int i, MeasuredRequest m, RequestRecord r) {
        boolean done = RequestRecord.COMPLETED.equals(r.status());
        double nan = Double.NaN;
        long anchorUs = m.fromQueued() && r.enqueueUs() >= 0 ? r.enqueueUs() - r.arrivalUs() : 0;
        return new ReplayRow(i, m.requestId(), m.inputTokens(), m.outputTokens(), r.arrivalUs(), r.status(),
                r.prefixHitTokens(), r.preemptions(),
                m.ttftMs(), done ? (r.ttftUs() - anchorUs) / 1e3 : nan,
                m.tpotMs(), done && r.outputTokens() > 1 ? r.meanItlUs() / 1e3 : nan,
                m.e2eMs(), done ? (r.e2eUs() - anchorUs) / 1e3 : nan,
                m.queueingMs(), r.firstScheduledUs() >= 0 ? r.queueingDelayUs() / 1e3 : nan);
    }

    /** Fresh requests for the workload's rows: id = position, arrival relative to the first row. */
    private static final class Workload implements RequestSource {
        private final List<TraceRow> rows;
        private int next;

        Workload(List<TraceRow> rows) {
            this.rows = rows;
        }

        @Override
        public Request next() {
            if (next == rows.size()) {
                return null;
            }
            TraceRow row = rows.get(next);
            long arrivalUs = row.timestampUs() - rows.get(0).timestampUs();
            return new Request(next++, RequestTags.DEFAULT, row.prompt(), row.outputTokens(), 0, arrivalUs, 0, true);
        }
    }
}
