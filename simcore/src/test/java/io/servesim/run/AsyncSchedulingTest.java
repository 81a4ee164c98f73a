package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.engine.EngineConfig;
import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * vLLM's async scheduling ({@code engine.async_scheduling}): step n+1 is formed while step n executes, so a request
 * that reaches the engine during a step waits for the step after next. Steps take exactly 1,000 us (b0 only), every
 * request has a 100-token prompt.
 */
class AsyncSchedulingTest {
    private static final LinearLatency ONE_MS = LinearLatency.steps(1000, 0, 0);

    private static Request req(long id, int output, long arrivalUs) {
        return new Request(id, RequestTags.DEFAULT, TokenSequence.unique(7000 + id, 100), output, 0, arrivalUs, 0, true);
    }

    private static Runs.Result run(boolean async, List<Request> requests) {
        EngineConfig e = Runs.engine(10_000).withAsyncScheduling(async);
        return Runs.run(e, ONE_MS, requests);
    }

    @Test
    void aRequestQueuedDuringAStepJoinsTheStepAfterNext() {
        // A (10 tokens) arrives at 0 on an idle engine: steps [0, 1000), [1000, 2000), ... B arrives at 500, during
        // A's first step. Without async scheduling B is in the step formed at 1,000 and samples its first token at
        // 2,000 (TTFT 1,500); with it, the step starting at 1,000 was formed at 0, so B's first step starts at 2,000
        // and its first token comes at 3,000 (TTFT 2,500). A is not delayed either way.
        Runs.Result sync = run(false, List.of(req(0, 10, 0), req(1, 2, 500)));
        Runs.Result async = run(true, List.of(req(0, 10, 0), req(1, 2, 500)));
        assertEquals(1_500, sync.byId(1).ttftUs());
        assertEquals(2_500, async.byId(1).ttftUs());
        assertEquals(1_000, sync.byId(1).firstScheduledUs());
        assertEquals(2_000, async.byId(1).firstScheduledUs());
        assertEquals(sync.byId(0).e2eUs(), async.byId(0).e2eUs());
        assertEquals(1_000, sync.byId(0).ttftUs());
        assertEquals(1_000, async.byId(0).ttftUs());
        // vLLM's engine core reads B from its input queue after the step in flight (QUEUED at 1,000) and decides on it
        // at once: without async scheduling for the step starting then, with it for the one after, which it forms while
        // the step [1000, 2000) executes (SCHEDULED at 1,000 too). Queue time 0 either way, as vLLM logs it.
        for (Runs.Result r : List.of(sync, async)) {
            assertEquals(1_000, r.byId(1).enqueueUs());
            assertEquals(0, r.byId(1).queueingDelayUs());
        }
    }

    @Test
    void theQueueTimeRunsFromTheStepBoundaryToTheSchedulersDecision() {
        // One seat (max_num_seqs 1). A (3 tokens) runs [0, 3000); B arrives at 500, is taken in at 1,000 (the end of
        // the step in flight) and waits for A's seat: its first step starts at 3,000 (first token 4,000, TTFT 3,500).
        // Without async scheduling the scheduler decides on B at 3,000: queue time 2,000. With it, the step starting at
        // 3,000 counts as formed at 2,000 (while [2000, 3000) executed): queue time 1,000.
        for (boolean async : new boolean[] {false, true}) {
            Runs.Result r = Runs.run(new EngineConfig(1, 2048, 0, 0, 16, 10_000, true).withAsyncScheduling(async), ONE_MS,
                    List.of(req(0, 3, 0), req(1, 1, 500)));
            assertEquals(1_000, r.byId(1).enqueueUs());
            assertEquals(3_000, r.byId(1).firstScheduledUs());
            assertEquals(3_500, r.byId(1).ttftUs());
            assertEquals(async ? 1_000 : 2_000, r.byId(1).queueingDelayUs());
        }
    }

    @Test
    void aRequestOnAnIdleEngineOrBehindAnEmptyStepStartsAtOnce() {
        // A (1 token) occupies [0, 1000) and leaves; B arrives at 500, during A's only step. The step after it would
        // have been empty (nothing was running to form it from), so B starts at 1,000 as without async scheduling:
        // first token at 2,000, TTFT 1,500. C arrives at 5,000 on an idle engine: TTFT 1,000.
        List<Request> requests = List.of(req(0, 1, 0), req(1, 1, 500), req(2, 1, 5_000));
        Runs.Result async = run(true, requests);
        assertEquals(1_500, async.byId(1).ttftUs());
        assertEquals(1_000, async.byId(2).ttftUs());
        assertEquals(run(false, List.of(req(0, 1, 0), req(1, 1, 500), req(2, 1, 5_000))).records(), async.records());
    }
}
