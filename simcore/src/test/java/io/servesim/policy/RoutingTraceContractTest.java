package io.servesim.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.cluster.AutoscalingConfig;
import io.servesim.cluster.ClusterConfig;
import io.servesim.cluster.DrainPolicy;
import io.servesim.cluster.Observability;
import io.servesim.cluster.RoutingPolicy;
import io.servesim.decisions.Candidate;
import io.servesim.decisions.DecisionKind;
import io.servesim.decisions.DecisionRecord;
import io.servesim.decisions.TraceLevel;
import io.servesim.decisions.TraceOptions;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import io.servesim.policy.routing.Routers;
import io.servesim.run.LinearLatency;
import io.servesim.run.PolicyBundle;
import io.servesim.run.PolicyKind;
import io.servesim.run.Runs;
import io.servesim.run.SimSetup;
import io.servesim.run.Simulation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Decision traces over every registered routing policy (the registry's names, so a new router
 * cannot skip it), on a fixed 3-instance fleet and on an autoscaled one (2 replicas at first, the
 * oscillator adding one every other 400 ms check, ready 300 ms later, and removing one at the next;
 * routing then sees the ready replicas as positions whose ids may differ). A router either scores: every
 * routing record has its top-K candidates by instance id with their score breakdowns, the chosen
 * instance's score, and a score regret &lt;= 0 (each router picks the best of its own scores, so no
 * alternative beats it); or it does not: no candidates, no score, no regret, and the record's reason
 * says so ("unscored: ...") rather than inventing scores.
 */
class RoutingTraceContractTest {
    private static final int K = 3;

    static List<Arguments> everyRouter() {
        List<Arguments> out = new ArrayList<>();
        for (String name : Routers.REGISTRY.names()) {
            out.add(Arguments.of(name, false));
            out.add(Arguments.of(name, true));
        }
        return out;
    }

    /** 300 requests every 8 ms, four shared 256-token prefixes (so prefix routers hit), 50..950-token prompts. */
    private static List<Request> workload() {
        List<Request> out = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            out.add(new Request(i, new RequestTags("c", "t", "interactive", -1, 0),
                    TokenSequence.prefixed(i % 4, 256, 10_000 + i, 50 + (i * 37) % 900), 20 + (i * 13) % 100, 0,
                    i * 8_000L, 0, true));
        }
        return out;
    }

    @ParameterizedTest(name = "{0} autoscaled={1}")
    @MethodSource("everyRouter")
    void scoresAndBreakdownsOrAnExplicitNoScore(String name, boolean autoscaled) {
        SimSetup setup = SimSetup.single(new EngineConfig(16, 1024, 0, 0, 16, 600, true), LinearLatency.steps(2000, 20, 300))
                .withCluster(new ClusterConfig(autoscaled ? 2 : 3, 0, 0, Observability.ALL_IMMEDIATE))
                .withPolicies(PolicyBundle.DEFAULT.with(PolicyKind.ROUTING, PolicySamples.of(PolicyKind.ROUTING, name))
                        .with(PolicyKind.AUTOSCALE, "oscillator"));
        if (autoscaled) {
            setup = setup.withAutoscaling(new AutoscalingConfig(true, 1, 4, 400_000, 100_000, 100_000, Double.NaN, 100_000,
                    DrainPolicy.WAIT, 1_000_000, 2_000_000, Double.NaN));
        }
        RoutingPolicy sample = PolicyKind.ROUTING.registry().create(PolicySamples.of(PolicyKind.ROUTING, name),
                new PolicyContext(4, io.servesim.slo.SloTargets.DEFAULT));
        boolean scores = sample.lastScores().length > 0;
        List<DecisionRecord> routings = new ArrayList<>();
        new Simulation(setup, Runs.listOf(workload()), r -> { })
                .traceDecisions(d -> {
                    if (d.kind() == DecisionKind.ROUTING) {
                        routings.add(d);
                    }
                }, new TraceOptions(TraceLevel.DETAILED, K)).run();
        assertEquals(300, routings.size());
        boolean sawAlternatives = false;
        for (DecisionRecord d : routings) {
            int[] ids = d.snapshot().instances();
            assertTrue(Arrays.stream(ids).anyMatch(id -> id == d.instance()), "routed to a routable instance id");
            if (!scores) {
                assertTrue(d.reason().contains("unscored: " + name + " "), d.reason());
                assertTrue(d.candidates().isEmpty());
                assertTrue(Double.isNaN(d.value()) && Double.isNaN(d.scoreRegret()));
                assertTrue(d.snapshot().scores().isEmpty());
                continue;
            }
            assertFalse(d.reason().contains("unscored"), d.reason());
            assertEquals(Math.min(K, ids.length), d.candidates().size());
            for (Candidate c : d.candidates()) {
                assertTrue(Arrays.stream(ids).anyMatch(id -> id == c.instance()), "candidate " + c.instance()
                        + " is a routable instance id " + Arrays.toString(ids));
                assertFalse(c.breakdown().isEmpty(), "a candidate's score breakdown");
                assertEquals(d.snapshot().scores().keySet(), c.breakdown().keySet());
            }
            // the chosen instance is among the best: regret = best alternative - chosen <= 0
            if (ids.length > 1) {
                assertTrue(d.scoreRegret() <= 0, name + " regret " + d.scoreRegret());
                sawAlternatives = true;
            }
            assertEquals(d.candidates().get(0).score(), d.value(), 1e-12, "the chosen score is the best");
            Map<String, double[]> parts = d.snapshot().scores();
            parts.values().forEach(v -> assertEquals(ids.length, v.length));
        }
        if (scores) {
            assertTrue(sawAlternatives, "some decision had alternatives");
        }
        if (autoscaled) {
            assertTrue(routings.stream().anyMatch(d -> d.snapshot().instances().length == 3), "a replica came");
        }
    }
}
