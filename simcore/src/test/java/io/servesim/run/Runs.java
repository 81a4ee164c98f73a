package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.engine.EngineConfig;
import io.servesim.engine.Request;
import io.servesim.latency.LatencyModel;
import io.servesim.metrics.RequestRecord;
import io.servesim.metrics.RunSummary;
import io.servesim.workload.RequestSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** Builds small simulations for tests. */
public final class Runs {
    private Runs() {
    }

    /** Engine limits with defaults for everything but the cache size. */
    public static EngineConfig engine(int totalBlocks) {
        return new EngineConfig(256, 2048, 0, 0, 16, totalBlocks, true);
    }

    /** A source over a fixed list (in arrival order). */
    public static RequestSource listOf(List<Request> requests) {
        Iterator<Request> it = requests.iterator();
        return () -> it.hasNext() ? it.next() : null;
    }

    /** Result of a run: summary plus every record in emission order. */
    public record Result(RunSummary summary, List<RequestRecord> records) {
        public RequestRecord byId(long id) {
            return records.stream().filter(r -> r.requestId() == id).findFirst().orElseThrow();
        }
    }

    public static Result run(EngineConfig cfg, LatencyModel latency, String scheduler, String priority,
                             RequestSource source, long horizonUs) {
        SimSetup setup = SimSetup.single(cfg, latency).withHorizonUs(horizonUs)
                .withPolicies(PolicyBundle.DEFAULT.with(PolicyKind.SCHEDULER, scheduler).with(PolicyKind.PRIORITY, priority));
        return run(setup, source);
    }

    public static Result run(SimSetup setup, RequestSource source) {
        List<RequestRecord> out = new ArrayList<>();
        RunSummary s = new Simulation(setup, source, out::add).run();
        return new Result(s, out);
    }

    public static Result run(EngineConfig cfg, LatencyModel latency, List<Request> requests) {
        return run(cfg, latency, "fcfs", "constant", listOf(requests), 0);
    }

    /**
     * The checks every run of an engine keeps, on two runs of one config and workload ({@code label} names it in
     * failures): INV-6 determinism, INV-1 conservation (none unfinished without a horizon), INV-5 causality, token
     * conservation, and each admission hitting fewer tokens than the request holds (the last is always computed).
     */
    public static void checkContract(Result first, Result second, long horizonUs, String label) {
        assertEquals(first.records(), second.records(), "INV-6 determinism, " + label);
        assertEquals(first.summary(), second.summary(), "INV-6 determinism, " + label);
        RunSummary s = first.summary();
        assertEquals(s.count("injected"), s.count("completed") + s.count("dropped") + s.count("unfinished"),
                "INV-1, " + label);
        assertEquals(s.count("injected"), first.records().size(), label);
        if (horizonUs == 0) {
            assertEquals(0, s.count("unfinished"), label);
        }
        for (RequestRecord r : first.records()) {
            if (r.status().equals(RequestRecord.COMPLETED)) {
                assertTrue(r.arrivalUs() <= r.enqueueUs() && r.enqueueUs() <= r.firstScheduledUs()
                        && r.firstScheduledUs() < r.firstTokenUs() && r.firstTokenUs() <= r.completionUs(), "INV-5 " + label + r);
                assertTrue(r.outputTokens() >= 1
                        && r.outputTokens() <= r.requestedOutputTokens() + 1, label + r);
                // the record sums 1 + preemptions admissions
                assertTrue(
                        r.prefixHitTokens() < (long) (r.preemptions() + 1) * (r.inputTokens() + r.outputTokens()), label + r);
            }
        }
    }
}
