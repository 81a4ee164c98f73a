package io.servesim.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.servesim.decisions.DecisionKind;
import io.servesim.decisions.DecisionRecord;
import io.servesim.decisions.TraceLevel;
import io.servesim.decisions.TraceOptions;
import io.servesim.decisions.TraceSummarizer;
import io.servesim.decisions.TraceSummary;
import io.servesim.engine.EngineConfig;
import io.servesim.run.LinearLatency;
import io.servesim.run.PolicyBundle;
import io.servesim.run.PolicyKind;
import io.servesim.run.Runs;
import io.servesim.run.SimSetup;
import io.servesim.run.Simulation;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DecisionTraceTest {
    private static SimSetup threeInstances(int kvBlocks) {
        return SimSetup.single(new EngineConfig(16, 1024, 0, 0, 16, kvBlocks, true), LinearLatency.steps(2000, 20, 300))
                .withCluster(new ClusterConfig(3, 0, 0, Observability.ALL_IMMEDIATE))
                .withPolicies(PolicyBundle.DEFAULT.with(PolicyKind.ROUTING, "weighted-scoring"));
    }

    private static List<DecisionRecord> trace(SimSetup setup, TraceOptions options) {
        return trace(setup, options, MixedWorkload.generate(200, 30, 0.5, 2, 1));
    }

    private static List<DecisionRecord> trace(SimSetup setup, TraceOptions options, List<io.servesim.engine.Request> requests) {
        List<DecisionRecord> decisions = new ArrayList<>();
        new Simulation(setup, Runs.listOf(requests), r -> { })
                .traceDecisions(decisions::add, options).run();
        return decisions;
    }

    @Test
    void levelNoneCannotAttachATracer() {
        // an untraced run's control plane holds no tracer, so it builds no record: none is refused, not ignored
        Simulation sim = new Simulation(threeInstances(2000), Runs.listOf(MixedWorkload.generate(10, 30, 0.5, 2, 1)), r -> { });
        assertThrows(IllegalArgumentException.class, () -> sim.traceDecisions(d -> fail("traced " + d), TraceOptions.OFF));
        assertThrows(IllegalArgumentException.class, () -> new TraceOptions(TraceLevel.NONE, 3));
    }

    @Test
    void everyRequestGetsAnAdmissionAPriorityAndARoutingDecision() {
        List<DecisionRecord> decisions = trace(threeInstances(2000), new TraceOptions(TraceLevel.DECISIONS, 0));
        var byKind = decisions.stream().collect(Collectors.groupingBy(DecisionRecord::kind, Collectors.counting()));
        assertEquals(200, byKind.get(DecisionKind.ADMISSION));
        assertEquals(200, byKind.get(DecisionKind.PRIORITY));
        assertEquals(200, byKind.get(DecisionKind.ROUTING));
        for (DecisionRecord d : decisions) {
            assertNull(d.snapshot(), "decisions level keeps no snapshot");
            assertTrue(d.candidates().isEmpty());
            if (d.kind() == DecisionKind.ADMISSION) {
                assertEquals("always-admit", d.policy());
                assertEquals("admit", d.outcome());
            }
        }
    }

    @Test
    void detailedRoutingDecisionsCarryWhatTheRouterSaw() {
        List<DecisionRecord> routings = trace(threeInstances(2000), new TraceOptions(TraceLevel.DETAILED, 0)).stream()
                .filter(d -> d.kind() == DecisionKind.ROUTING).toList();
        for (DecisionRecord d : routings) {
            assertEquals("weighted-scoring", d.policy());
            var s = d.snapshot().scores();
            // default weights: cache 1, load 1, queue 0, kv 0.5 -> the chosen instance has the top total
            double best = -1;
            int arg = -1;
            for (int i = 0; i < 3; i++) {
                double total = s.get("cache_affinity")[i] + s.get("load")[i] + 0.5 * s.get("kv_utilization")[i];
                if (total > best) {
                    best = total;
                    arg = i;
                }
            }
            assertEquals(arg, d.instance());
            assertEquals(best, d.value(), 1e-12);
        }
        assertTrue(routings.stream().anyMatch(d -> d.snapshot().prefixOverlapBlocks()[d.instance()] > 0));
    }

    @Test
    void aRouterThatReadsNoPrefixIndexLeavesTheOverlapUnmeasured() {
        // least-loaded reads load only: no prefix index is kept, so the snapshot has no overlap (not zeros)
        SimSetup setup = threeInstances(2000).withPolicies(PolicyBundle.DEFAULT.with(PolicyKind.ROUTING, "least-loaded"));
        List<DecisionRecord> routings = trace(setup, new TraceOptions(TraceLevel.DETAILED, 0)).stream()
                .filter(d -> d.kind() == DecisionKind.ROUTING).toList();
        assertFalse(routings.isEmpty());
        routings.forEach(d -> assertNull(d.snapshot().prefixOverlapBlocks(), "unmeasured at t=" + d.timeUs()));
    }

    @Test
    void counterfactualsListTheTopKAndTheScoreRegret() {
        for (DecisionRecord d : trace(threeInstances(2000), new TraceOptions(TraceLevel.DECISIONS, 2))) {
            if (d.kind() != DecisionKind.ROUTING) {
                continue;
            }
            assertEquals(2, d.candidates().size());
            // weighted-scoring takes its best score: the chosen instance leads and regret = runner-up - chosen <= 0
            assertEquals(d.instance(), d.candidates().get(0).instance());
            assertEquals(d.candidates().get(1).score() - d.candidates().get(0).score(), d.scoreRegret(), 1e-12);
            assertTrue(d.scoreRegret() <= 0);
            assertEquals(4, d.candidates().get(0).breakdown().size());
        }
    }

    @Test
    void preemptionsAreTracedWithTheVictimsPriority() {
        // 100 KV blocks of 16 tokens per instance hold three ~512-token prompts, not their growth at 300 req/s: vLLM preempts
        List<DecisionRecord> decisions = trace(threeInstances(100), new TraceOptions(TraceLevel.DECISIONS, 0),
                MixedWorkload.generate(200, 300, 0.5, 0, 1));
        List<DecisionRecord> preempted = decisions.stream().filter(d -> d.kind() == DecisionKind.PREEMPTION).toList();
        assertTrue(!preempted.isEmpty());
        preempted.forEach(d -> assertEquals("fcfs", d.policy()));
        TraceSummarizer summarizer = new TraceSummarizer(3);
        decisions.forEach(summarizer::accept);
        TraceSummary s = summarizer.summary();
        assertEquals(decisions.size(), s.decisions());
        assertEquals((long) preempted.size(), s.victims().values().stream().mapToLong(Long::longValue).sum());
        assertNotNull(s.text());
    }

    /**
     * Every check whose policy asked for a change is a scale record: the step load's scale-ups and
     * -downs add up to the autoscaler's counts, each with the threshold's reason and, detailed, the
     * aggregates it saw (the record's from count is the signals' current_replicas).
     */
    @Test
    void scaleActionsAreTracedWithTheirReasonAndSignals() {
        SimSetup setup = AutoscalingFixture.setup(1, AutoscalingFixture.config(1, 6, 1_000_000, DrainPolicy.WAIT),
                "least-loaded", "threshold", java.util.Map.of("signal", "in_flight", "scale_up", 12.0, "scale_down", 2.0,
                        "cooldown", "10s"));
        List<DecisionRecord> decisions = new ArrayList<>();
        Simulation sim = new Simulation(setup, Runs.listOf(AutoscalingFixture.stepLoad()), r -> { });
        var summary = sim.traceDecisions(decisions::add, new TraceOptions(TraceLevel.DETAILED, 0)).run();
        List<DecisionRecord> scale = decisions.stream().filter(d -> d.kind() == DecisionKind.SCALE).toList();
        long up = 0;
        long down = 0;
        for (DecisionRecord d : scale) {
            assertEquals("threshold", d.policy());
            assertEquals(-1, d.requestId());
            assertEquals(d.fromReplicas(), d.snapshot().signals().get("current_replicas"), 0);
            if (d.outcome().equals("scale_up")) {
                up += d.toReplicas() - d.fromReplicas();
                assertTrue(d.reason().startsWith("in_flight ") && d.reason().contains(" > scale_up 12.00"), d.reason());
            } else if (d.outcome().equals("scale_down")) {
                down += d.fromReplicas() - d.toReplicas();
                assertTrue(d.reason().contains(" < scale_down 2.000"), d.reason());
            }
        }
        assertEquals(summary.autoscaling().scaleUps(), up);
        assertEquals(summary.autoscaling().scaleDowns(), down);
        assertTrue(up > 0 && down > 0);
        TraceSummarizer summarizer = new TraceSummarizer(3);
        decisions.forEach(summarizer::accept);
        assertEquals(scale.size(), summarizer.summary().scaleActions().size());
        assertTrue(summarizer.summary().text().contains("scale actions: " + scale.size()));
    }

    /** A policy asking beyond the bounds is clamped, and its record says so: the oscillator at max 1 never acts. */
    @Test
    void clampedScaleDecisionsAreTraced() {
        SimSetup setup = AutoscalingFixture.setup(1, AutoscalingFixture.config(1, 1, 1_000_000, DrainPolicy.WAIT),
                "least-loaded", "oscillator", java.util.Map.of());
        List<DecisionRecord> scale = new ArrayList<>();
        new Simulation(setup, Runs.listOf(AutoscalingFixture.steady(0, 0, 5_000_000, 100_000)), r -> { })
                .traceDecisions(d -> {
                    if (d.kind() == DecisionKind.SCALE) {
                        scale.add(d);
                    }
                }, new TraceOptions(TraceLevel.DECISIONS, 0)).run();
        assertTrue(!scale.isEmpty());
        for (DecisionRecord d : scale) {
            assertEquals("clamped", d.outcome());
            assertEquals(1, d.fromReplicas());
            assertEquals(1, d.toReplicas());
            assertNull(d.snapshot());
            assertTrue(d.reason().contains("clamped " + (int) d.value() + " -> 1 (bounds 1..1)"), d.reason());
        }
    }
}
