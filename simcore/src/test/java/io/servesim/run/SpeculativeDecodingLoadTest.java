package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.StrictJson;
import io.servesim.metrics.RunSummary;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The gain of speculative decoding fades with load, as vLLM's measurements show it (vLLM blog, "How Speculative Decoding
 * Boosts vLLM Performance by up to 2.8x", 2024-10-17: up to 1.5x faster generation at QPS 1 with a draft model, a 1.4x
 * slowdown at high QPS, Llama-3-70B on 4 x H100), on the roofline: at a low rate a decode step is memory-bound, and
 * verifying drafts costs little more than decoding one token; at a high rate the batch is large, its GEMMs compute-bound, and the
 * drafts' extra tokens cost about what they earn or more.
 */
class SpeculativeDecodingLoadTest {
    private static final String CONFIG = """
            seed: 3
            deployment: {model: meta-llama/llama-3.1-%s-instruct, hardware: H100, tp: %d, latency_model: roofline}
            engine: {max_num_seqs: 256, max_model_len: 8192%s}
            workload:
              aggregate_rate: %s
              num_requests: 400
              input_distribution: {type: gaussian, params: {mean: 512, std_dev: 128, min: 64, max: 2048}}
              output_distribution: {type: gaussian, params: {mean: 256, std_dev: 64, min: 16, max: 1024}}
            """;
    private static final String EAGLE = ", speculative: {method: eagle, num_speculative_tokens: 3, acceptance_rate: 0.7}";
    private static final String DRAFT_8B = ", speculative: {method: draft, draft_model: meta-llama/llama-3.1-8b-instruct,"
            + " num_speculative_tokens: 4, acceptance_rate: 0.7}";

    static RunSummary run(String model, int tp, String spec, double rate) {
        try {
            var cfg = SimConfigLoader.bind(StrictJson.yaml().readTree(CONFIG.formatted(model, tp, spec, rate)), Path.of("."));
            return RunPlan.prepare(cfg).run(r -> { });
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** TPOT without speculation over TPOT with it. */
    private static double speedUp(String model, int tp, String spec, double rate) {
        RunSummary off = run(model, tp, "", rate);
        RunSummary on = run(model, tp, spec, rate);
        double s = off.distribution("tpot_ms").mean() / on.distribution("tpot_ms").mean();
        System.out.printf("rate %.1f: TPOT off %.2f ms, eagle %.2f ms, speed-up %.2fx, batch %.1f / %.1f, acceptance %.3f%n",
                rate, off.distribution("tpot_ms").mean(), on.distribution("tpot_ms").mean(), s, off.number("batch_size_mean"), on.number("batch_size_mean"),
                on.number("spec_acceptance_rate"));
        return s;
    }

    @Test
    void theTpotSpeedUpAtLowLoadExceedsTheOneAtHighLoad() {
        double low = speedUp("8b", 1, EAGLE, 0.5);
        double high = speedUp("8b", 1, EAGLE, 48);
        assertTrue(low > 1.5, "low load: " + low);
        assertTrue(low > high + 0.3, "low " + low + " vs high " + high);
    }

    /**
     * The blog's own setting, a 70B target on 4 x H100 with a draft model (here Llama-3.1-8B, 4 drafts, alpha 0.7): a
     * gain near its 1.5x at 1 request/s, and none left once the batch is large (16 requests/s, about 115 sequences): the
     * draft model's passes and the verified drafts' GEMMs then cost what the accepted tokens save (0.95x to 1.00x over
     * seeds; the blog measured a 1.4x slowdown there, with vLLM's v0 speculative decoding).
     */
    @Test
    void aDraftModelGainsNothingOnALoadedEngine() {
        double low = speedUp("70b", 4, DRAFT_8B, 1);
        double high = speedUp("70b", 4, DRAFT_8B, 16);
        assertTrue(low > 1.3, "low load: " + low);
        assertTrue(high < 1.05, "high load: " + high);
    }
}
