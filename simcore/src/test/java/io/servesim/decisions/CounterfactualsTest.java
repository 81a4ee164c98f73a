package io.servesim.decisions;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class CounterfactualsTest {
    // weighted-scoring with weights cache 1, load 1, kv 0.5 over three instances:
    //   instance 0: cache 0.5, load 0.0, kv 0.8 -> 0.5 + 0 + 0.4 = 0.9
    //   instance 1: cache 0.0, load 1.0, kv 0.6 -> 0 + 1 + 0.3   = 1.3
    //   instance 2: cache 1.0, load 0.5, kv 0.2 -> 1 + 0.5 + 0.1 = 1.6
    private static final double[] SCORES = {0.9, 1.3, 1.6};

    @Test
    void topKIsBestFirstWithTiesToTheLowerId() {
        assertArrayEquals(new int[] {2, 1}, Counterfactuals.topK(SCORES, 3, 2));
        assertArrayEquals(new int[] {2, 1, 0}, Counterfactuals.topK(SCORES, 3, 5));
        assertArrayEquals(new int[] {1, 3, 0}, Counterfactuals.topK(new double[] {1, 2, 0, 2}, 4, 3));
    }

    @Test
    void regretIsBestAlternativeMinusChosen() {
        // chose the best (2): best alternative 1.3 - 1.6 = -0.3 (the winning margin)
        assertEquals(-0.3, Counterfactuals.scoreRegret(SCORES, 3, 2), 1e-12);
        // chose 0 (e.g. an affinity rule overrode the scores): 1.6 - 0.9 = 0.7
        assertEquals(0.7, Counterfactuals.scoreRegret(SCORES, 3, 0), 1e-12);
        // chose 1: 1.6 - 1.3 = 0.3
        assertEquals(0.3, Counterfactuals.scoreRegret(SCORES, 3, 1), 1e-12);
        assertTrue(Double.isNaN(Counterfactuals.scoreRegret(new double[] {1.0}, 1, 0)));
    }

    @Test
    void theSummaryCountsAndRanksByRegret() {
        TraceSummarizer s = new TraceSummarizer(1);
        s.accept(routing(1, 2, 0.3));
        s.accept(routing(2, 0, 0.7));
        s.accept(routing(3, 2, -0.3));
        s.accept(new DecisionRecord(4, 4, DecisionKind.ADMISSION, "token-bucket", "reject", "bucket empty", -1, 0,
                Double.NaN, List.of(), null));
        s.accept(new DecisionRecord(5, 5, DecisionKind.PREEMPTION, "fcfs", "preempted", "", 1, 2.0, Double.NaN,
                List.of(), null));
        TraceSummary t = s.summary();
        assertEquals(5, t.decisions());
        assertEquals(3L, t.byPolicy().get("routing/weighted-scoring"));
        assertEquals(1L, t.byOutcome().get("admission/reject"));
        assertEquals(2L, t.targets().get(2));
        // mean of 0.3, 0.7, -0.3 = 0.7 / 3; nearest-rank p99 of three = the largest
        assertEquals(0.7 / 3, t.meanRegret(), 1e-12);
        assertEquals(0.7, t.p99Regret(), 1e-12);
        assertEquals(2, t.worst().get(0).requestId());
        assertEquals(1L, t.rejections().get("bucket empty"));
        assertEquals(1L, t.victims().get("2.000"));
        assertTrue(t.text().contains("worst: request 2"), t.text());
    }

    @Test
    void aRouterThatTookItsTopScoreEveryTimeShowsItsClosestCallsNotWorstDecisions() {
        TraceSummarizer s = new TraceSummarizer(2);
        s.accept(routing(1, 2, -0.3));
        s.accept(routing(2, 0, 0.0));
        s.accept(routing(3, 1, -0.1));
        String text = s.summary().text();
        assertTrue(text.contains("every routing took its top score; the closest calls (regret 0: a tie the router broke):\n"
                + "  closest: request 2") && text.contains("  closest: request 3") && !text.contains("worst:"), text);
    }

    private static DecisionRecord routing(long id, int instance, double regret) {
        return new DecisionRecord(id, id, DecisionKind.ROUTING, "weighted-scoring", "routed", "", instance, 1.0, regret,
                List.of(new Candidate(instance, 1.0, java.util.Map.of("load", 1.0))), null);
    }
}
