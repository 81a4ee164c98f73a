package io.servesim.policy.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.cluster.ClusterConfig;
import io.servesim.cluster.Observability;
import io.servesim.cluster.Signal;
import io.servesim.config.ConfigException;
import io.servesim.decisions.Candidate;
import io.servesim.decisions.DecisionKind;
import io.servesim.decisions.DecisionRecord;
import io.servesim.decisions.TraceLevel;
import io.servesim.decisions.TraceOptions;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import io.servesim.policy.PolicyContext;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code weighted-scoring} computes only the terms its weights keep and builds the per-component
 * breakdown lazily, for traces: every traced candidate's score must still be exactly (not within a
 * tolerance) the formula evaluated whole over its breakdown, {@code cache_affinity x c + load x l +
 * queue_depth x q + kv_utilization x k} in that order, and the chosen instance the best score (ties:
 * lowest position). Weights with zeros in every place, immediate and periodically scraped signals
 * (the view's bulk read, checked against the one-value accessors in debug mode, takes both paths).
 */
class WeightedScoringTest {
    private static final int INSTANCES = 4;

    static List<Arguments> weightsAndSignals() {
        List<Map<String, Object>> weights = List.of(
                Map.of(),
                Map.of("cache_affinity", 1.0, "load", 0.7, "queue_depth", 0.3, "kv_utilization", 0.0),
                Map.of("cache_affinity", 0.0, "load", 0.0, "queue_depth", 2.0, "kv_utilization", 1.0),
                Map.of("cache_affinity", 3.0, "load", 0.0, "queue_depth", 0.0, "kv_utilization", 0.0));
        List<Arguments> out = new ArrayList<>();
        for (Map<String, Object> w : weights) {
            out.add(Arguments.of(w, false));
            out.add(Arguments.of(w, true));
        }
        return out;
    }

    /** 400 requests every 4 ms (enough to queue), four shared 256-token prefixes, 50..950-token prompts. */
    private static List<Request> workload() {
        List<Request> out = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            out.add(new Request(i, new RequestTags("c", "t", "interactive", -1, 0),
                    TokenSequence.prefixed(i % 4, 256, 20_000 + i, 50 + (i * 37) % 900), 20 + (i * 13) % 100, 0,
                    i * 4_000L, 0, true));
        }
        return out;
    }

    @ParameterizedTest(name = "{0} scraped={1}")
    @MethodSource("weightsAndSignals")
    void tracedScoresAreTheFormulaOverTheBreakdown(Map<String, Object> params, boolean scraped) {
        PolicySpec spec = new PolicySpec("weighted-scoring", params, "policies.routing");
        Observability signals = scraped ? new Observability(Map.of(
                Signal.QUEUE_DEPTH, Observability.Mode.periodic(20_000),
                Signal.RUNNING, Observability.Mode.periodic(20_000),
                Signal.KV_UTILIZATION, Observability.Mode.periodic(20_000))) : Observability.ALL_IMMEDIATE;
        SimSetup setup = SimSetup.single(new EngineConfig(8, 512, 0, 0, 16, 300, true), LinearLatency.steps(2000, 20, 300))
                .withCluster(new ClusterConfig(INSTANCES, 0, 0, signals))
                .withPolicies(PolicyBundle.DEFAULT.with(PolicyKind.ROUTING, spec));
        List<DecisionRecord> routings = new ArrayList<>();
        new Simulation(setup, Runs.listOf(workload()), r -> { })
                .traceDecisions(d -> {
                    if (d.kind() == DecisionKind.ROUTING) {
                        routings.add(d);
                    }
                }, new TraceOptions(TraceLevel.DETAILED, INSTANCES)).run();
        assertEquals(400, routings.size());
        double wCache = weight(params, "cache_affinity", 1);
        double wLoad = weight(params, "load", 1);
        double wQueue = weight(params, "queue_depth", 0);
        double wKv = weight(params, "kv_utilization", 0.5);
        boolean sawPartialLoad = false;
        for (DecisionRecord d : routings) {
            assertEquals(INSTANCES, d.candidates().size());
            for (Candidate c : d.candidates()) {
                Map<String, Double> b = c.breakdown();
                double whole = wCache * b.get("cache_affinity") + wLoad * b.get("load")
                        + wQueue * b.get("queue_depth") + wKv * b.get("kv_utilization");
                assertEquals(whole, c.score(), 0.0, "request " + d.requestId() + " instance " + c.instance());
                b.values().forEach(v -> assertTrue(v >= 0 && v <= 1, "component " + v + " in [0, 1]"));
                sawPartialLoad |= b.get("load") > 0 && b.get("load") < 1;
            }
            Candidate best = d.candidates().get(0);
            assertEquals(best.score(), d.value(), 0.0, "request " + d.requestId() + " went to a best-scored instance");
            for (Candidate c : d.candidates()) {
                if (c.score() == best.score()) {
                    assertTrue(d.instance() <= c.instance(), "ties go to the lowest id");
                }
            }
        }
        if (wLoad > 0) { // else the cache term alone sends requests to their prefix's instance
            assertTrue(sawPartialLoad, "some decision normalized a load strictly between idle and the busiest");
        }
    }

    private static double weight(Map<String, Object> params, String name, double dflt) {
        return params.containsKey(name) ? ((Number) params.get(name)).doubleValue() : dflt;
    }

    @Test
    void aWeightMustBeFinite() {
        // an infinite weight times a zero component is NaN: every such score would lose, whatever the loads
        ConfigException e = assertThrows(ConfigException.class, () -> WeightedScoring.create(
                new PolicySpec("weighted-scoring", Map.of("cache_affinity", Double.POSITIVE_INFINITY), "policies.routing"),
                new PolicyContext(2, io.servesim.slo.SloTargets.DEFAULT)));
        assertTrue(e.getMessage().startsWith("policies.routing.params.cache_affinity: must be in [0, 1000], got Infinity"),
                e.getMessage());
    }

    @Test
    void aNegativeZeroWeightReadsAsZero() {
        // -0.0 x a component is -0.0, which a trace would print; skipped or not, the total must be +0.0
        PolicySpec spec = new PolicySpec("weighted-scoring", Map.of("load", -0.0), "policies.routing");
        assertEquals(0L, Double.doubleToRawLongBits(spec.get(WeightedScoring.LOAD)));
    }
}
