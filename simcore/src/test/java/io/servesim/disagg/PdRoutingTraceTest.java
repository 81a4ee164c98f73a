package io.servesim.disagg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.decisions.Candidate;
import io.servesim.decisions.DecisionKind;
import io.servesim.decisions.DecisionRecord;
import io.servesim.decisions.TraceLevel;
import io.servesim.decisions.TraceOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The routing records of P/D pools ({@code ControlPlane.traceRouting} -> {@code DecisionTracer.routing} over a pool's
 * view): a pool router scores positions 0..n-1 of its pool, but records name engine ids (the prefill pool's 0, 1 and
 * the decode pool's 2, 3 in {@link PdRuns#BASE}), in the record, its candidates and its snapshot; the score and regret
 * are the chosen position's; a router without scores says why instead.
 */
class PdRoutingTraceTest {
    private static final TraceOptions DETAILED_TOP4 = new TraceOptions(TraceLevel.DETAILED, 4);

    @Test
    void bothPoolsRecordInstanceIdsInCandidatesAndSnapshotsWithTheChosenPositionsScore() {
        List<DecisionRecord> routings = routings(PdRuns.trace(DETAILED_TOP4, PdRuns.BASE, "workload.num_requests=40"));
        assertEquals(80, routings.size(), "a prefill and a decode routing per request");
        for (DecisionRecord d : routings) {
            int[] pool = d.policy().equals("kv-router") ? new int[] {0, 1} : new int[] {2, 3};
            assertTrue(d.policy().equals("kv-router") || d.policy().equals("least-loaded"), d.toString());
            assertTrue(d.instance() == pool[0] || d.instance() == pool[1], d.toString());
            // top-4 of a 2-instance pool: both of its instances, by id, best first
            assertEquals(2, d.candidates().size(), d.toString());
            assertEquals(List.of(pool[0], pool[1]), d.candidates().stream().map(Candidate::instance).sorted().toList(),
                    d.toString());
            assertTrue(d.candidates().get(0).score() >= d.candidates().get(1).score(), d.toString());
            // the record's score is the chosen instance's candidate score, and the regret is the other's minus it
            Candidate chosen = d.candidates().stream().filter(c -> c.instance() == d.instance()).findFirst().orElseThrow();
            Candidate other = d.candidates().stream().filter(c -> c.instance() != d.instance()).findFirst().orElseThrow();
            assertEquals(chosen.score(), d.value(), d.toString());
            assertEquals(other.score() - chosen.score(), d.scoreRegret(), 1e-12, d.toString());
            assertTrue(d.scoreRegret() <= 0, "ties go to the lowest id, so nothing scores above the choice: " + d);
            assertArrayEquals(pool, d.snapshot().instances(), "the snapshot names the pool's engines");
            assertFalse(d.reason().startsWith("unscored"), d.toString());
        }
    }

    @Test
    void aRoundRobinPrefillRouterIsUnscoredAndSaysWhyWhileTheDecodeRouterStillScores() {
        List<DecisionRecord> routings = routings(PdRuns.trace(DETAILED_TOP4, PdRuns.BASE, "workload.num_requests=40",
                "policies.routing=round-robin"));
        List<DecisionRecord> prefill = routings.stream().filter(d -> d.policy().equals("round-robin")).toList();
        List<DecisionRecord> decode = routings.stream().filter(d -> d.policy().equals("least-loaded")).toList();
        assertEquals(40, prefill.size());
        assertEquals(40, decode.size());
        for (int i = 0; i < prefill.size(); i++) {
            DecisionRecord d = prefill.get(i);
            assertEquals("unscored: round-robin takes the instances in turn, reading no instance state", d.reason());
            assertEquals(List.of(), d.candidates());
            assertTrue(Double.isNaN(d.value()) && Double.isNaN(d.scoreRegret()), d.toString());
            assertEquals(i % 2, d.instance(), "in turn over the prefill pool's engines 0, 1");
            assertArrayEquals(new int[] {0, 1}, d.snapshot().instances());
        }
        for (DecisionRecord d : decode) {
            assertEquals("", d.reason());
            assertEquals(2, d.candidates().size(), d.toString());
            assertTrue(d.candidates().stream().allMatch(c -> c.instance() == 2 || c.instance() == 3), d.toString());
        }
    }

    private static List<DecisionRecord> routings(List<DecisionRecord> decisions) {
        return decisions.stream().filter(d -> d.kind() == DecisionKind.ROUTING).toList();
    }
}
