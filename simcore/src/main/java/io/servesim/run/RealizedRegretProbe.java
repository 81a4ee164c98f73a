package io.servesim.run;

import io.servesim.decisions.Candidate;
import io.servesim.decisions.DecisionRecord;
import io.servesim.decisions.RealizedRegret;
import io.servesim.metrics.RecordSink;
import io.servesim.metrics.RequestRecord;
import io.servesim.metrics.SessionSink;
import io.servesim.workload.RequestSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Realized regret of sampled routing decisions: the run is simulated again with one decision
 * changed ({@link ForcedRoute}) for each alternative among its counterfactual candidates, and the
 * outcomes compared with the unchanged run's: the request's own TTFT, and the sum of TTFT over the
 * next {@value #NEXT_COMPLETIONS} completions from the decision on (what the choice did to the
 * cluster). The kernel is deterministic, so replaying from the start reproduces the state at the
 * decision exactly; the cost is one run per alternative plus one.
 */
public final class RealizedRegretProbe {
    /** Completions after the decision whose TTFTs sum to the cluster-level outcome. */
    public static final int NEXT_COMPLETIONS = 20;

    private final SimSetup setup;
    private final Supplier<RequestSource> source;

    /** {@code source} opens the run's request stream afresh, identically each time. */
    public RealizedRegretProbe(SimSetup setup, Supplier<RequestSource> source) {
        this.setup = setup;
        this.source = source;
    }

    /** One entry per (sampled routing decision, alternative candidate), in decision then candidate order. */
    public List<RealizedRegret> probe(List<DecisionRecord> sampled) {
        List<RealizedRegret> out = new ArrayList<>();
        if (sampled.isEmpty()) {
            return out;
        }
        Completions base = replay(-1, -1);
        for (DecisionRecord d : sampled) {
            for (Candidate c : d.candidates()) {
                if (c.instance() == d.instance()) {
                    continue;
                }
                Completions alt = replay(d.requestId(), c.instance());
                out.add(new RealizedRegret(d.requestId(), d.timeUs(), d.instance(), c.instance(), c.score() - d.value(),
                        (base.ttftUs(d.requestId()) - alt.ttftUs(d.requestId())) / 1000,
                        (base.nextTtftSumUs(d.timeUs()) - alt.nextTtftSumUs(d.timeUs())) / 1000));
            }
        }
        return out;
    }

    private Completions replay(long requestId, int instance) {
        Completions c = new Completions();
        new Simulation(setup, source.get(), c, SessionSink.NONE,
                p -> requestId < 0 ? p : new ForcedRoute(p, requestId, instance)).run();
        return c;
    }

    /** The completed requests of one replay: TTFT by id, and (completion, TTFT) in emission order. */
    private static final class Completions implements RecordSink {
        private final Map<Long, Long> ttftById = new HashMap<>();
        private final List<long[]> byCompletion = new ArrayList<>();

        @Override
        public void accept(RequestRecord r) {
            if (RequestRecord.COMPLETED.equals(r.status())) {
                ttftById.put(r.requestId(), r.ttftUs());
                byCompletion.add(new long[] {r.completionUs(), r.ttftUs()});
            }
        }

        double ttftUs(long requestId) {
            Long t = ttftById.get(requestId);
            return t == null ? Double.NaN : t;
        }

        /** Sum of TTFT over the first {@link #NEXT_COMPLETIONS} completions at or after {@code fromUs}. */
        double nextTtftSumUs(long fromUs) {
            List<long[]> sorted = new ArrayList<>(byCompletion);
            sorted.sort((a, b) -> Long.compare(a[0], b[0]));
            double sum = 0;
            int n = 0;
            for (long[] c : sorted) {
                if (c[0] >= fromUs && n < NEXT_COMPLETIONS) {
                    sum += c[1];
                    n++;
                }
            }
            return sum;
        }
    }
}
