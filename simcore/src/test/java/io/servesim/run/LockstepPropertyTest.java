package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.engine.Request;
import io.servesim.metrics.RequestRecord;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Conservation and determinism of two lockstep ranks (LockstepRunTest's deployment) over random arrivals and lengths:
 * every request completes exactly once on one rank (the engines' invariants checked after every step in debug mode),
 * and the same workload gives the same records.
 */
class LockstepPropertyTest {
    @Property(tries = 30)
    void everyRequestCompletesOnExactlyOneRankAndRunsRepeat(@ForAll @IntRange(min = 1, max = 60) int n,
                                                            @ForAll @IntRange(min = 0, max = 1000) int seed) {
        List<RequestRecord> first = run(n, seed);
        assertEquals(n, first.size(), "every request leaves exactly once");
        Set<Long> ids = new HashSet<>();
        for (RequestRecord rec : first) {
            assertTrue(ids.add(rec.requestId()), "request " + rec.requestId() + " left twice");
            assertEquals(RequestRecord.COMPLETED, rec.status());
            assertTrue(rec.instanceId() == 0 || rec.instanceId() == 1);
        }
        assertEquals(first, run(n, seed), "same workload, same records");
    }

    private static List<RequestRecord> run(int n, int seed) {
        java.util.Random rnd = new java.util.Random(seed);
        List<Request> reqs = new ArrayList<>();
        long t = 0;
        for (int i = 0; i < n; i++) {
            t += rnd.nextInt(20_000);
            reqs.add(LockstepRunTest.request(i, 1 + rnd.nextInt(600), 1 + rnd.nextInt(80), t));
        }
        return Runs.run(LockstepRunTest.twoRanks(true), Runs.listOf(reqs)).records();
    }

}
