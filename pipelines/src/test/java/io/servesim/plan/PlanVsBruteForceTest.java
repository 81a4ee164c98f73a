package io.servesim.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * On the kernel, a plan's answer is the brute-force one: every candidate of a small space run on the full trace at the
 * target rate, the cheapest meeting every SLO (of several alike in price, the plan's is the one sustaining the most). The space
 * mixes what the search prunes (aggregated replica counts) and what it cannot (P/D pool ratios).
 */
class PlanVsBruteForceTest {
    @Test
    void thePlansAnswerIsTheCheapestFeasibleCandidateOfTheFullGrid() throws Exception {
        // 2 GPUs x TP 1, 2 x 2 engine settings x (1-5 replicas + 4 P/D pairs) = 72 candidates, 400 chat requests
        ObjectNode tree = CapacitySearchTest.config("""
                name: brute
                base:
                  deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, latency_model: roofline,
                               pd: {transfer: {latency: 1ms, bandwidth: 50GB/s}}}
                  engine: {max_num_seqs: 128, max_num_batched_tokens: 2048, block_size: 16}
                  policies: {routing: least-loaded}
                  workload: {scenario: chat, arrival: {process: poisson}}
                target_rate_rps: 12
                slo: [{ttft_p99_ms: 500}, {tpot_p90_ms: 50}]
                space:
                  gpus: [H100, A100-80GB]
                  tp: [1, 2]
                  replicas: {min: 1, max: 5}
                  pd: {prefill: [1, 2], decode: [1, 2]}
                  engine: {default: {}, batched-8k: {max_num_batched_tokens: 8192}}
                seed: 3
                search: {screen_requests: 100, confirm_requests: 400, keep: 2}
                """);
        PlanSpec plan = PlanFile.bind(tree, Path.of(".").toAbsolutePath());
        assertEquals(72, plan.candidates().size());
        Map<Integer, String> invalid = CandidateCheck.invalid(plan);
        Drive.Done done = Drive.search(new PlanSearch(plan, invalid), p -> Drive.kernel(plan, p));
        assertNotNull(done.result().recommended(), "something in the space meets the SLOs");
        PlanSearchTest.assertBruteForceAnswer(plan, done, p -> Drive.kernel(plan, p));
        long fullAtTarget = plan.candidates().stream().filter(c -> done.results().get(c.index(), 12, 400) != null).count();
        assertTrue(fullAtTarget <= 72 / 4, "9 when written: " + fullAtTarget + " of 72 candidates ran on the full trace at the target");
    }
}
