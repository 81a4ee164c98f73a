package io.servesim.cluster;

import io.servesim.engine.Engine;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.EngineTotals;
import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import io.servesim.metrics.RequestRecord;
import io.servesim.metrics.RunSummary;
import io.servesim.policy.PolicySpec;
import io.servesim.run.LinearLatency;
import io.servesim.run.PolicyBundle;
import io.servesim.run.PolicyKind;
import io.servesim.run.Runs;
import io.servesim.run.SimSetup;
import io.servesim.run.Simulation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Small autoscaled clusters for the autoscaling tests: a step-rate workload and a run that keeps its timeline. */
final class AutoscalingFixture {
    /** 16 sequences, 1,024 tokens per step; a step costs 2 ms + 20 us per prefill token + 300 us per decode token. */
    static final EngineConfig ENGINE = new EngineConfig(16, 1024, 0, 0, 16, 2000, true);

    private AutoscalingFixture() {
    }

    /** Arrivals every {@code gapUs} in [fromUs, toUs), ids from {@code firstId}; 256-token shared prefix, 100 output tokens. */
    static List<Request> steady(long firstId, long fromUs, long toUs, long gapUs) {
        List<Request> out = new ArrayList<>();
        long id = firstId;
        for (long t = fromUs; t < toUs; t += gapUs) {
            out.add(new Request(id, new RequestTags("c", "t", "interactive", -1, 0),
                    TokenSequence.prefixed(0, 256, 10_000 + id, 400), 100, 0, t, 0, true));
            id++;
        }
        return out;
    }

    /** Low load (one request per 200 ms) until 20 s, high (one per 5 ms) until 60 s, low until 100 s. */
    static List<Request> stepLoad() {
        List<Request> out = new ArrayList<>(steady(0, 0, 20_000_000, 200_000));
        out.addAll(steady(out.size(), 20_000_000, 60_000_000, 5_000));
        out.addAll(steady(out.size(), 60_000_000, 160_000_000, 200_000));
        return out;
    }

    static AutoscalingConfig config(int min, int max, long checkUs, DrainPolicy drain) {
        // provisioning 2 s + weights 1 s + warm-up 2 s: a new replica is ready 5 s after the decision
        return new AutoscalingConfig(true, min, max, checkUs, 2_000_000, 1_000_000, Double.NaN, 2_000_000, drain,
                5_000_000, 10_000_000, 3.0);
    }

    static SimSetup setup(int initial, AutoscalingConfig a, String routing, String policy, Map<String, Object> params) {
        return setup(ENGINE, initial, a, routing, policy, params);
    }

    static SimSetup setup(EngineConfig engine, int initial, AutoscalingConfig a, String routing, String policy,
                          Map<String, Object> params) {
        return SimSetup.single(engine, LinearLatency.steps(2000, 20, 300))
                .withCluster(new ClusterConfig(initial, 0, 0, Observability.ALL_IMMEDIATE))
                .withPolicies(PolicyBundle.DEFAULT.with(PolicyKind.ROUTING, routing)
                        .with(PolicyKind.AUTOSCALE, new PolicySpec(policy, params, "policies.autoscale")))
                .withAutoscaling(a);
    }

    /**
     * A run's summary, records and replica timeline (rows of time, then a count per state); the
     * replica slots that held a replica, the retired replicas' counters and the engines live at the end.
     */
    record Outcome(RunSummary summary, List<RequestRecord> records, long[] timeline, int slotsUsed,
                   EngineTotals retired, List<Engine> liveEngines) {
        /** Time the ready count first exceeded {@code n} (-1 if never). */
        long firstTimeReadyAbove(int n) {
            int width = Fleet.STATES.length + 1;
            for (int r = 0; r < timeline.length; r += width) {
                if (timeline[r + 1 + ReplicaState.READY.ordinal()] > n) {
                    return timeline[r];
                }
            }
            return -1;
        }
    }

    static Outcome run(SimSetup setup, List<Request> requests) {
        List<RequestRecord> out = new ArrayList<>();
        Simulation sim = new Simulation(setup, Runs.listOf(requests), out::add);
        RunSummary s = sim.run();
        List<Engine> live = java.util.Arrays.stream(sim.engines()).filter(java.util.Objects::nonNull).toList();
        return new Outcome(s, out, sim.autoscaler().fleet().timeline(), sim.autoscaler().fleet().slotsUsed(),
                sim.autoscaler().counters().retired(), live);
    }
}
