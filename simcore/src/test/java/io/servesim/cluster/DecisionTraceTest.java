package io.servesim.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.decisions.DecisionRecord;
import io.servesim.engine.EngineConfig;
import io.servesim.run.LinearLatency;
import io.servesim.run.PolicyBundle;
import io.servesim.run.PolicyKind;
import io.servesim.run.Runs;
import io.servesim.run.SimSetup;
import io.servesim.run.Simulation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DecisionTraceTest {
    @Test
    void weightedScoringDecisionsCarryTheirBreakdown() {
        SimSetup setup = SimSetup.single(new EngineConfig(16, 1024, 0, 0, 16, 2000, true), LinearLatency.steps(2000, 20, 300))
                .withCluster(new ClusterConfig(3, 0, 0, Observability.ALL_IMMEDIATE))
                .withPolicies(PolicyBundle.DEFAULT.with(PolicyKind.ROUTING, "weighted-scoring"));
        List<DecisionRecord> decisions = new ArrayList<>();
        new Simulation(setup, Runs.listOf(MixedWorkload.generate(200, 30, 0.5, 2, 1)), r -> { })
                .traceDecisions(decisions::add).run();
        assertEquals(200, decisions.size());
        for (DecisionRecord d : decisions) {
            assertEquals("weighted-scoring", d.policy());
            // default weights: cache 1, load 1, queue 0, kv 0.5 -> the chosen instance has the top total
            double best = -1;
            int arg = -1;
            for (int i = 0; i < 3; i++) {
                double total = d.scores().get("cache_affinity")[i] + d.scores().get("load")[i]
                        + 0.5 * d.scores().get("kv_utilization")[i];
                if (total > best) {
                    best = total;
                    arg = i;
                }
            }
            assertEquals(arg, d.chosenInstance());
        }
        assertTrue(decisions.stream().anyMatch(d -> d.prefixOverlapBlocks()[d.chosenInstance()] > 0));
    }
}
