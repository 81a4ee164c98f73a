package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import io.servesim.workload.NetworkSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where servesim follows vLLM: its metrics' definitions ({@code benchmarks/benchmark_serving.py})
 * and its v1 scheduler's choices ({@code vllm/v1/core/sched/scheduler.py}).
 */
class VllmParityTest {
    private static Request req(long id, int input, int output, long arrivalUs) {
        return new Request(id, RequestTags.DEFAULT, TokenSequence.unique(1000 + id, input), output, 0, arrivalUs, 0, true);
    }

    @Test
    void tpotLeavesOutOneTokenOutputs() {
        // Two requests far apart, steps of 1000 + 10/prefill token + 100/decode token us.
        // Request 0: 100-token prompt, 1 output token: TTFT 2000, no TPOT (vLLM: output_len > 1 only).
        // Request 1: 100-token prompt, 3 output tokens: prefill 2000, then two decode steps of 1100:
        // TPOT = (completion - first token) / (3 - 1) = 2200 / 2 = 1100 us. Counting request 0 as
        // 0 us would give a mean of 550 us and a p50 of 0.
        var res = Runs.run(Runs.engine(1000), LinearLatency.steps(1000, 10, 100),
                List.of(req(0, 100, 1, 0), req(1, 100, 3, 1_000_000)));
        var tpot = res.summary().distribution("tpot_ms");
        assertEquals(1, tpot.count());
        assertEquals(1.1, tpot.mean(), 1e-9);
        assertEquals(1.1, tpot.p50(), 1e-9);
        assertEquals(2, res.summary().distribution("ttft_ms").count());
    }

    /**
     * 5 blocks of 16 tokens; steps of 1000 + 10/prefill token + 100/decode token us. A (40-token
     * prompt) arrives at 0, B (30) at 500. Step 1 (0-1400): A's prefill (3 blocks). Step 2
     * (1400-2800): A decodes, B is admitted (2 blocks; cache full). Steps 3, 4 (1200 us each): both
     * decode. Step 5 (5200): A is scheduled first (44 tokens fit its 3 blocks), then B needs a third
     * block for its 33rd token and none is free.
     */
    private static Runs.Result preemptionRun(String scheduler) {
        return Runs.run(Runs.engine(5), LinearLatency.steps(1000, 10, 100), scheduler, "constant",
                Runs.listOf(List.of(req(0, 40, 20, 0), req(1, 30, 20, 500))), 0);
    }

    @Test
    void fcfsPreemptsTheTail() {
        // vLLM FCFS: self.running.pop() is B itself, which is then requeued.
        var res = preemptionRun("fcfs");
        assertEquals(0, res.byId(0).preemptions());
        assertEquals(1, res.byId(1).preemptions());
    }

    @Test
    void priorityPreemptsWhatThePolicyServesLastAndUnschedulesIt() {
        // sjf serves the longest prompt last, so A (40 > 30) is the victim although it leads the
        // batch and was already scheduled in step 5 (vLLM PRIORITY: max(self.running, key=...)).
        // It is unscheduled: step 5 computes B's decode alone, 1100 us (not 1200), and B keeps the
        // freed blocks and decodes alone from then on. B's tokens: first at 2800, then steps of
        // 1200, 1200 and 17 x 1100 (steps 5-21) to its 20th: completion 5200 + 18700 = 23900,
        // E2E 23900 - 500 = 23400.
        var res = preemptionRun("sjf");
        assertEquals(1, res.byId(0).preemptions());
        assertEquals(0, res.byId(1).preemptions());
        assertEquals(2300, res.byId(1).ttftUs());
        assertEquals(23_400, res.byId(1).e2eUs());
        assertEquals(2, res.summary().count("completed"));
    }

    @Test
    void aPreemptedRequestsReHitsAreCountedApart() {
        // The sjf run above: A is preempted with 43 computed tokens, so its 2 full blocks are
        // indexed as they are freed (tail first: the partial third block, then blocks 1 and 0, in
        // that order at the free queue's head). B's third and fourth blocks take the partial block
        // and block 1; when B completes, A is readmitted with 40 + 4 tokens and re-hits block 0:
        // 16 of 44 tokens. First admissions (A: 40, B: 30 tokens) hit nothing. vLLM records the
        // readmission under preempted_hits / preempted_queries and leaves it out of its hit rate,
        // which would otherwise read 16 / 114.
        var res = preemptionRun("sjf");
        assertEquals(16, res.byId(0).prefixHitTokens());
        assertEquals(0.0, res.summary().number("prefix_hit_rate"), 1e-12);
        assertEquals(16.0 / 44, res.summary().number("preempted_prefix_hit_rate"), 1e-12);
    }

    @Test
    void clientLatencyIncludesBothNetworkLegs() {
        // As benchmark_serving.py times it: from the client's send to the chunk's receipt. RTT 1000 us
        // splits 500 + 500; 4 bytes per token at 1 Mbit/s serializes 32 us per token.
        // Streaming request 0, sent at 0 (unlimited bandwidth): arrives at 500; prefill step
        // 500-2500, decode steps of 1100: tokens at 2500, 3600, 4700. Server TTFT 2000, E2E 4200;
        // the client gets each token 500 us later: TTFT 3000, E2E 5200 (+ the full RTT).
        // Non-streaming request 1, sent at 1,000,000 over the 1 Mbit/s link: request leg 500 +
        // 100 x 32 = 3700; server TTFT 2000, E2E 4200; the whole 3-token response takes 500 + 96:
        // the client's first (and last) token at 3700 + 4200 + 596 = 8496 after sending.
        NetworkSpec fast = new NetworkSpec(4, 0, 1000);
        NetworkSpec slow = new NetworkSpec(4, 1, 1000);
        Request streamed = req(0, 100, 3, fast.requestDelayUs(100));
        streamed.setClientNetwork(0, fast::responseDelayUs);
        Request whole = new Request(1, RequestTags.DEFAULT, TokenSequence.unique(1001, 100), 3, 0,
                1_000_000 + slow.requestDelayUs(100), 0, false);
        whole.setClientNetwork(1_000_000, slow::responseDelayUs);
        var res = Runs.run(Runs.engine(1000), LinearLatency.steps(1000, 10, 100), List.of(streamed, whole));
        assertEquals(2000, res.byId(0).ttftUs());
        assertEquals(4200, res.byId(0).e2eUs());
        assertEquals(3000, res.byId(0).clientTtftUs());
        assertEquals(5200, res.byId(0).clientE2eUs());
        assertEquals(1_003_700, res.byId(1).arrivalUs());
        assertEquals(4200, res.byId(1).e2eUs());
        assertEquals(8496, res.byId(1).clientTtftUs());
        assertEquals(8496, res.byId(1).clientE2eUs());
        assertEquals((3000 + 8496) / 2e3, res.summary().distribution("client_ttft_ms").mean(), 1e-9);
    }
}
