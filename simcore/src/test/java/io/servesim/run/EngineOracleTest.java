package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.servesim.engine.EngineConfig;
import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import io.servesim.metrics.RequestRecord;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Single-instance engine timings derived by hand (each test states the derivation). */
class EngineOracleTest {
    private static Request req(long id, int input, int output, long arrivalUs) {
        return new Request(id, RequestTags.DEFAULT, TokenSequence.unique(1000 + id, input), output, 0, arrivalUs, 0, true);
    }

    @Test
    void oneRequestUnderBlackbox() {
        // a0=500, a1=1, a2=50; b0=1000, b1=10, b2=100. Input 100, output 3, arrival 0.
        // queued at 500 + 1*100 = 600; step 1 prefill 100: 1000 + 10*100 = 2000 -> ends 2600;
        // token 1 visible at 2600 + 50 = 2650 (TTFT 2650).
        // step 2 decode: 1000 + 100 = 1100 -> ends 3700; token 2 at 2650 + 1100 + 50 = 3800.
        // step 3 decode ends 4800; token 3 at 3800 + 1150 = 4950 = completion (E2E 4950).
        // TPOT = (4950 - 2650) / 2 = 1150. Scheduling delay 600, queueing delay 0.
        var res = Runs.run(Runs.engine(100), new LinearLatency(500, 1, 50, 1000, 10, 100), List.of(req(0, 100, 3, 0)));
        RequestRecord r = res.byId(0);
        assertEquals(600, r.enqueueUs());
        assertEquals(600, r.firstScheduledUs());
        assertEquals(2650, r.ttftUs());
        assertEquals(4950, r.e2eUs());
        assertEquals(1150.0, r.meanItlUs());
        assertEquals(600, r.schedulingDelayUs());
        assertEquals(0, r.queueingDelayUs());
        assertEquals(3, r.outputTokens());
        assertEquals(RequestRecord.COMPLETED, r.status());
        assertEquals(3, res.summary().count("steps"));
        assertEquals(2.65, res.summary().distribution("ttft_ms").mean(), 1e-9);
    }

    @Test
    void twoRequestsShareSteps() {
        // Both arrive at 0 (no queueing delay). Step 1 prefills 100 + 50 = 150 tokens:
        // 1000 + 10*150 = 2500 -> both first tokens at 2500. Step 2 decodes both:
        // 1000 + 100*2 = 1200 -> both complete at 3700.
        var res = Runs.run(Runs.engine(100), LinearLatency.steps(1000, 10, 100),
                List.of(req(0, 100, 2, 0), req(1, 50, 2, 0)));
        for (long id : new long[] {0, 1}) {
            assertEquals(2500, res.byId(id).ttftUs());
            assertEquals(3700, res.byId(id).e2eUs());
        }
        assertEquals(2, res.summary().count("steps"));
        assertEquals(2.0, res.summary().number("batch_size_mean"));
    }

    @Test
    void longPromptIsChunkedAtThreshold() {
        // 5000-token prompt, threshold 2048, budget 8192 so only the threshold binds:
        // chunks 2048, 2048, 904 -> 21480 + 21480 + (1000 + 9040) = 53000 us to the first token.
        EngineConfig cfg = new EngineConfig(256, 8192, 2048, 0, 16, 1000, true);
        var res = Runs.run(cfg, LinearLatency.steps(1000, 10, 100), List.of(req(0, 5000, 1, 0)));
        assertEquals(53000, res.byId(0).ttftUs());
        assertEquals(3, res.summary().count("steps"));
    }

    @Test
    void budgetChunksPrefillWithoutThreshold() {
        // Budget 2048 alone chunks a 5000-token prompt the same way: 2048, 2048, 904.
        var res = Runs.run(Runs.engine(1000), LinearLatency.steps(1000, 10, 100), List.of(req(0, 5000, 1, 0)));
        assertEquals(53000, res.byId(0).ttftUs());
    }

    @Test
    void repeatedPromptHitsPrefixCache() {
        // Same 64 explicit token ids twice, block 16. The second request (after the first left)
        // may reuse at most (64 - 1) / 16 = 3 blocks = 48 tokens; it prefills 16:
        // step = 1000 + 10*16 = 1160 us. The first prefills all 64: 1000 + 640 = 1640.
        int[] ids = IntStream.range(0, 64).map(i -> 7 * i + 3).toArray();
        Request first = new Request(0, RequestTags.DEFAULT, TokenSequence.ofTokenIds(ids), 1, 0, 0, 0, true);
        Request second = new Request(1, RequestTags.DEFAULT, TokenSequence.ofTokenIds(ids.clone()), 1, 0, 10_000, 0, true);
        var res = Runs.run(Runs.engine(100), LinearLatency.steps(1000, 10, 100), List.of(first, second));
        assertEquals(0, res.byId(0).prefixHitTokens());
        assertEquals(1640, res.byId(0).ttftUs());
        assertEquals(48, res.byId(1).prefixHitTokens());
        assertEquals(1160, res.byId(1).ttftUs());
        assertEquals(48.0 / 128.0, res.summary().number("prefix_hit_rate"), 1e-12);
    }

    @Test
    void prefixCachingOffMeansNoHits() {
        int[] ids = IntStream.range(0, 64).toArray();
        Request first = new Request(0, RequestTags.DEFAULT, TokenSequence.ofTokenIds(ids), 1, 0, 0, 0, true);
        Request second = new Request(1, RequestTags.DEFAULT, TokenSequence.ofTokenIds(ids), 1, 0, 10_000, 0, true);
        var res = Runs.run(new EngineConfig(256, 2048, 0, 0, 16, 100, false), LinearLatency.steps(1000, 10, 100),
                List.of(first, second));
        assertEquals(0, res.byId(1).prefixHitTokens());
        assertEquals(1640, res.byId(1).ttftUs());
    }

    @Test
    void tinyCachePreemptsTheTail() {
        // 4 blocks of 16 tokens. A and B (input 30, output 20) arrive at 0; each takes 2 blocks.
        // After 3 decode tokens each holds 33 tokens' worth of need: at step 4 A needs a 3rd
        // block, none is free, so the tail (B) is preempted (recompute) and requeued at the front.
        // A then runs alone to 49 computed tokens (4 blocks); B waits, then recomputes its
        // 30 + 3 tokens and finishes. Exactly one preemption; both produce 20 tokens.
        EngineConfig cfg = new EngineConfig(256, 2048, 0, 0, 16, 4, true);
        var res = Runs.run(cfg, LinearLatency.steps(1000, 10, 100), List.of(req(0, 30, 20, 0), req(1, 30, 20, 0)));
        assertEquals(1, res.summary().count("preemptions"));
        assertEquals(0, res.byId(0).preemptions());
        assertEquals(1, res.byId(1).preemptions());
        assertEquals(20, res.byId(0).outputTokens());
        assertEquals(20, res.byId(1).outputTokens());
        assertEquals(2, res.summary().count("completed"));
        // Both first tokens come from step 1 (prefill of 60 tokens: 1000 + 600 = 1600).
        assertEquals(1600, res.byId(1).ttftUs());
        // B finishes after A: its remaining tokens wait for A's completion.
        assertEquals(true, res.byId(1).e2eUs() > res.byId(0).e2eUs());
    }

    @Test
    void oversizeRequestsAreDropped() {
        // max_model_len 100: a 150-token prompt is unservable. A 1000-token prompt needs 63
        // blocks > 50 in the cache. The 20-token request is served.
        EngineConfig cfg = new EngineConfig(256, 2048, 0, 100, 16, 50, true);
        var res = Runs.run(cfg, LinearLatency.steps(1000, 10, 100),
                List.of(req(0, 150, 5, 0), req(1, 20, 5, 1), req(2, 99, 1, 2)));
        assertEquals(RequestRecord.DROPPED, res.byId(0).status());
        assertEquals("exceeds_max_model_len", res.byId(0).dropReason());
        assertEquals(RequestRecord.COMPLETED, res.byId(1).status());
        assertNull(res.byId(1).dropReason());
        assertEquals(RequestRecord.COMPLETED, res.byId(2).status());
        assertEquals(1, res.summary().count("dropped"));

        EngineConfig small = new EngineConfig(256, 2048, 0, 0, 16, 50, true);
        var res2 = Runs.run(small, LinearLatency.steps(1000, 10, 100), List.of(req(0, 1000, 5, 0)));
        assertEquals("exceeds_kv_capacity", res2.byId(0).dropReason());
    }

    @Test
    void lengthCapStopsAtMaxModelLen() {
        // max_model_len 40, prompt 30, asks for 50 tokens: generation stops once prompt + output
        // reaches 40 tokens, i.e. after 10 output tokens (vLLM check_stop), flagged length-capped.
        EngineConfig cfg = new EngineConfig(256, 2048, 0, 40, 16, 50, true);
        var res = Runs.run(cfg, LinearLatency.steps(1000, 10, 100), List.of(req(0, 30, 50, 0)));
        assertEquals(10, res.byId(0).outputTokens());
        assertEquals(true, res.byId(0).lengthCapped());
        assertEquals(RequestRecord.COMPLETED, res.byId(0).status());
    }

    @Test
    void requestAloneThatOutgrowsTheCacheIsDroppedNotRetried() {
        // 2 blocks (32 tokens); prompt 20 fits but 20 + 40 output tokens never can: when it needs a
        // third block with nothing else to evict it is dropped (never_fits), not retried forever.
        EngineConfig cfg = new EngineConfig(256, 2048, 0, 0, 16, 2, true);
        var res = Runs.run(cfg, LinearLatency.steps(1000, 10, 100), List.of(req(0, 20, 40, 0)));
        assertEquals(RequestRecord.DROPPED, res.byId(0).status());
        assertEquals("never_fits", res.byId(0).dropReason());
    }

    @Test
    void horizonReportsUnfinished() {
        // Prefill 100 tokens takes 2000 us; with a 1500 us horizon nothing finishes.
        var res = Runs.run(Runs.engine(100), LinearLatency.steps(1000, 10, 100), "fcfs", "constant",
                Runs.listOf(List.of(req(0, 100, 3, 0), req(1, 10, 3, 1000), req(2, 10, 3, 5000))), 1500);
        assertEquals(2, res.summary().count("injected"));
        assertEquals(2, res.summary().count("unfinished"));
        assertEquals(RequestRecord.UNFINISHED, res.byId(0).status());
        assertEquals(2, res.records().size());
    }
}
