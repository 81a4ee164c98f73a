package io.servesim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The SGLang core's scheduling rules on hand-derived cases (page size 1: a page is a token). */
class SglangSchedulerTest {
    /** SGLang's defaults but for the policy, the chunk size and the conservativeness. */
    private static SglangConfig config(SglangConfig.Policy p, int chunk, double conservativeness) {
        SglangConfig d = SglangConfig.DEFAULTS;
        return new SglangConfig(p, chunk, d.maxPrefillTokens(), d.initNewTokenRatio(), d.minNewTokenRatioFactor(),
                d.newTokenRatioDecaySteps(), conservativeness);
    }

    private static SglangConfig policy(SglangConfig.Policy p) {
        return config(p, SglangConfig.DEFAULTS.chunkedPrefillSize(), 1.0);
    }

    private static SglangConfig conservativeness(double c) {
        return config(SglangConfig.DEFAULTS.policy(), SglangConfig.DEFAULTS.chunkedPrefillSize(), c);
    }

    @Test
    void requestsAdmittedInOneBatchReserveTheirWholeOutputBudget() {
        // 100 pages of 1 token. R1 (10 prompt + 50 output + 1 page of overhead = 61 < 100) is admitted; then
        // rem_total = (100 - 10) - (50 + 1) = 39, and R2 (61 >= 39) does not fit: the batch is full, R2 waits.
        SglangHarness h = new SglangHarness(100, 1, 8, SglangConfig.DEFAULTS);
        Request r1 = SglangHarness.unique(1, 10, 50);
        Request r2 = SglangHarness.unique(2, 10, 50);
        h.submit(r1);
        h.submit(r2);
        h.step();
        assertEquals(List.of(r1), h.admitted);
        assertEquals(Request.State.QUEUED, r2.state);
    }

    @Test
    void aRunningRequestReservesItsRemainingBudgetTimesTheNewTokenRatio() {
        // Step 1 admits R1 (10 prompt tokens, 50 output) and samples its first token: it holds 10 pages, 49 tokens to go.
        // Step 2, R2 (10 + 50 + 1 = 61) arrives: rem_total = 90 free - 49 x 0.7 = 55.7 <= 61 (default ratio 0.7, no
        // decay yet: step 1 was a prefill), so R2 waits; with schedule_conservativeness 0.5 the ratio is 0.35 and
        // rem_total = 90 - 17.15 = 72.85 > 61: R2 is admitted in step 2.
        for (double c : new double[] {1.0, 0.5}) {
            SglangHarness h = new SglangHarness(100, 1, 8, conservativeness(c));
            Request r1 = SglangHarness.unique(1, 10, 50);
            Request r2 = SglangHarness.unique(2, 10, 50);
            h.submit(r1);
            h.step();
            h.submit(r2);
            h.step();
            assertEquals(c == 1.0 ? List.of(r1) : List.of(r1, r2), h.admitted, "conservativeness " + c);
        }
    }

    @Test
    void theRatioDecaysByOneStepPerDecodeBatchDownToItsFloor() {
        // init 0.7, floor 0.7 x 0.14 = 0.098, decay (0.7 - 0.098) / 600 per decode step
        SglangHarness h = new SglangHarness(1000, 1, 8, SglangConfig.DEFAULTS);
        h.submit(SglangHarness.unique(1, 10, 700));
        h.step(); // prefill
        assertEquals(0.7, h.scheduler.newTokenRatio(), 1e-12);
        for (int i = 0; i < 3; i++) {
            h.step(); // decode
        }
        assertEquals(0.7 - 3 * (0.7 - 0.098) / 600, h.scheduler.newTokenRatio(), 1e-12);
        for (int i = 0; i < 650; i++) {
            h.step();
        }
        assertEquals(0.098, h.scheduler.newTokenRatio(), 1e-12);
    }

    @Test
    void retractionTakesTheFewestOutputTokensThenTheLongestPromptAndResetsTheRatio() {
        // 26 pages: A (8 prompt, 3 generated) holds 10, B (6, 1) 6, C (8, 1) 8; 2 free. The next decode step needs one
        // page each (3 > 2, nothing evictable): retract. B and C have generated fewest (1); C has the longer prompt: C
        // goes, its prompt node becomes evictable and is evicted for the survivors' 2 x 20 tokens of headroom; A and B
        // then fit. Ratio = (3 + 1 + 20 x 2) / (100 + 100) = 0.22.
        SglangHarness h = new SglangHarness(26, 1, 8, SglangConfig.DEFAULTS);
        Request a = SglangHarness.unique(1, 8, 100);
        Request b = SglangHarness.unique(2, 6, 100);
        Request c = SglangHarness.unique(3, 8, 100);
        h.placeDecoding(a, 3);
        h.placeDecoding(b, 1);
        h.placeDecoding(c, 1);
        assertEquals(2, h.kv.freeBlocks());
        var shape = h.step();
        assertEquals(List.of(c), h.preempted);
        assertEquals(Request.State.QUEUED, c.state);
        assertEquals(0, c.computedTokens);
        assertEquals(1, c.generatedTokens, "a retracted request keeps its output");
        assertEquals(1, c.preemptions);
        assertSame(c, h.waitQueue.peek());
        assertEquals(2, shape.decodeSeqs());
        assertEquals(0.22, h.scheduler.newTokenRatio(), 1e-12);
        assertEquals(8, h.radix.evictedPages());
    }

    @Test
    void lpmAdmitsTheLongestCachedPrefixFirstAndKeepsTheSortedOrder() {
        // F (20 tokens of prefix P + 5 unique, 1 output) runs first and leaves P's 20 pages cached. Then, in arrival
        // order, W1 (30 unique), W2 (P's 20 + 10), W3 (P's first 12 + 10) wait; one request runs at a time. lpm matches
        // W1 0, W2 20, W3 12 tokens: W2 runs first with 20 cached tokens, W3 and W1 wait in that order. fcfs runs W1.
        for (SglangConfig.Policy p : new SglangConfig.Policy[] {SglangConfig.Policy.LPM, SglangConfig.Policy.FCFS}) {
            SglangHarness h = new SglangHarness(200, 1, 1, policy(p));
            h.submit(SglangHarness.request(1, TokenSequence.prefixed(77, 20, 501, 5), 1));
            h.step();
            assertEquals(20, h.radix.pageHashCount());
            Request w1 = SglangHarness.unique(2, 30, 5);
            Request w2 = SglangHarness.request(3, TokenSequence.prefixed(77, 20, 502, 10), 5);
            Request w3 = SglangHarness.request(4, TokenSequence.prefixed(77, 12, 503, 10), 5);
            h.submit(w1);
            h.submit(w2);
            h.submit(w3);
            h.step();
            if (p == SglangConfig.Policy.LPM) {
                assertSame(w2, h.running.request(0));
                assertEquals(20, w2.prefixHitTokens);
                assertSame(w3, h.waitQueue.poll());
                assertSame(w1, h.waitQueue.poll());
            } else {
                assertSame(w1, h.running.request(0));
            }
        }
    }

    @Test
    void aLongPromptIsPrefilledInChunksAndDecodeWaitsForIt() {
        // chunked_prefill_size 8: D decodes; L (20 tokens) arrives: chunks of 8, 8, 4 in three prefill steps, during
        // which D gets no token (prefill first, no mixed chunks); L's first token comes with its last chunk.
        SglangHarness h = new SglangHarness(500, 1, 8, config(SglangConfig.Policy.FCFS, 8, 1.0));
        Request dec = SglangHarness.unique(1, 4, 50);
        Request longPrompt = SglangHarness.unique(2, 20, 5);
        h.placeDecoding(dec, 1);
        h.submit(longPrompt);
        int[] chunks = {8, 8, 4};
        for (int chunk : chunks) {
            var shape = h.step();
            assertEquals(1, shape.prefillSeqs());
            assertEquals(chunk, shape.prefillTokens());
            assertEquals(0, shape.decodeSeqs());
        }
        assertEquals(1, h.running.generated[h.slotOf(longPrompt)]);
        var shape = h.step();
        assertEquals(2, shape.decodeSeqs());
        assertTrue(h.preempted.isEmpty());
    }

    @Test
    void dfsWeightServesTheHeaviestSubtreeFirstAndLofTheLargestBudget() {
        // P (content 77) and Q (content 88), 20 tokens each, are cached by two finished requests. Waiting in arrival
        // order: X1 (Q + 5), X2 (P + 5), X3 (P + 6), X4 (8 unique). Matches end at P's node (X2, X3: weight 2), Q's
        // (X1: weight 1) and the root (X4). Depth-first, heavier child first, a node's requests after its subtree's:
        // X2, X3, X1, X4. One runs at a time: X2; X3, X1, X4 wait in that order.
        SglangHarness h = new SglangHarness(300, 1, 1, policy(SglangConfig.Policy.DFS_WEIGHT));
        h.submit(SglangHarness.request(1, TokenSequence.prefixed(77, 20, 501, 5), 1));
        h.submit(SglangHarness.request(2, TokenSequence.prefixed(88, 20, 502, 5), 1));
        h.step();
        h.step();
        assertEquals(40, h.radix.pageHashCount());
        Request x1 = SglangHarness.request(3, TokenSequence.prefixed(88, 20, 503, 5), 5);
        Request x2 = SglangHarness.request(4, TokenSequence.prefixed(77, 20, 504, 5), 5);
        Request x3 = SglangHarness.request(5, TokenSequence.prefixed(77, 20, 505, 6), 5);
        Request x4 = SglangHarness.unique(6, 8, 5);
        for (Request x : List.of(x1, x2, x3, x4)) {
            h.submit(x);
        }
        h.step();
        assertSame(x2, h.running.request(0));
        assertEquals(List.of(x3, x1, x4), List.of(h.waitQueue.poll(), h.waitQueue.poll(), h.waitQueue.poll()));

        // lof: the largest output budget first (W2's 50 over W1's 5)
        SglangHarness l = new SglangHarness(300, 1, 1, policy(SglangConfig.Policy.LOF));
        Request w1 = SglangHarness.unique(7, 10, 5);
        Request w2 = SglangHarness.unique(8, 10, 50);
        l.submit(w1);
        l.submit(w2);
        l.step();
        assertEquals(List.of(w2), l.admitted);
    }
}
