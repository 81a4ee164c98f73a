package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.StrictJson;
import io.servesim.metrics.RunSummary;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The gain of speculative decoding fades with load, as vLLM's measurements show it (vLLM blog, "How Speculative Decoding
 * Boosts vLLM Performance by up to 2.8x", 2024-10-17: up to 1.5x faster generation at QPS 1 with a draft model, a 1.4x
 * slowdown at high QPS, Llama-3-70B on 4 x H100): at a low rate a decode step is memory-bound, and verifying 3 EAGLE
 * drafts costs little more than decoding one token; at a high rate the batch is large, its GEMMs compute-bound, and the
 * drafts' extra tokens cost about what they earn. Llama-3.1-8B on one H100, roofline, EAGLE k = 3, alpha 0.7.
 */
class SpeculativeDecodingLoadTest {
    private static final String CONFIG = """
            seed: 3
            deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1, latency_model: roofline}
            engine: {max_num_seqs: 256, max_model_len: 8192%s}
            workload:
              aggregate_rate: %s
              num_requests: 400
              input_distribution: {type: gaussian, params: {mean: 512, std_dev: 128, min: 64, max: 2048}}
              output_distribution: {type: gaussian, params: {mean: 256, std_dev: 64, min: 16, max: 1024}}
            """;
    private static final String EAGLE = ", speculative: {method: eagle, num_speculative_tokens: 3, acceptance_rate: 0.7}";

    static RunSummary run(String spec, double rate) {
        try {
            var cfg = SimConfigLoader.bind(StrictJson.yaml().readTree(CONFIG.formatted(spec, rate)), Path.of("."));
            return RunPlan.prepare(cfg).run(r -> { });
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** TPOT without speculation over TPOT with it. */
    private static double speedUp(double rate) {
        RunSummary off = run("", rate);
        RunSummary on = run(EAGLE, rate);
        double s = off.tpotMs().mean() / on.tpotMs().mean();
        System.out.printf("rate %.1f: TPOT off %.2f ms, eagle %.2f ms, speed-up %.2fx, batch %.1f / %.1f, acceptance %.3f%n",
                rate, off.tpotMs().mean(), on.tpotMs().mean(), s, off.batchSizeMean(), on.batchSizeMean(),
                on.specDecode().acceptanceRate());
        return s;
    }

    @Test
    void theTpotSpeedUpAtLowLoadExceedsTheOneAtHighLoad() {
        double low = speedUp(0.5);
        double high = speedUp(40);
        assertTrue(low > 1.5, "low load: " + low);
        assertTrue(low > high + 0.3, "low " + low + " vs high " + high);
    }
}
