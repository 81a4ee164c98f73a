package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.StrictJson;
import io.servesim.metrics.RunSummary;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The CPU tier on a prefix-heavy multi-turn workload: 40 conversations at a time whose histories
 * (6-10 turns of ~600 prompt + ~150 output tokens, accumulated) outgrow a 1,500-block GPU cache
 * (24,000 tokens) on Llama-3.1-8B / H100. A 20,000-block CPU tier over the H100's PCIe Gen5 link
 * keeps the histories evicted between turns: the prefix hit rate rises and TTFT p50 falls, since a
 * 2 MiB block reloads in ~33 us where recomputing its 16 tokens costs a prefill. Over a 1 GB/s link
 * a block takes ~2.1 ms, more than recomputing it, so the same tier makes TTFT worse than GPU-only.
 */
class KvTierTradeOffTest {
    private static final String CONFIG = """
            seed: 7
            deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1}
            engine: {total_kv_blocks: 1500, block_size: 16, max_model_len: 16384%s}
            workload:
              aggregate_rate: 0.5
              num_requests: 1600
              input_distribution: {type: gaussian, params: {mean: 600, std_dev: 150, min: 64, max: 1200}}
              output_distribution: {type: gaussian, params: {mean: 150, std_dev: 50, min: 16, max: 400}}
              prefix: {group: system, length: 256}
              conversation: {probability: 1.0, turns: {type: uniform, params: {min: 6, max: 10}},
                             think_time_us: {type: exponential, params: {mean: 8000000}}, context_growth: accumulate}
            """;

    static RunSummary run(String engineExtra) {
        try {
            var cfg = SimConfigLoader.bind(StrictJson.yaml().readTree(CONFIG.formatted(engineExtra)), Path.of("."));
            return RunPlan.prepare(cfg).run(r -> { });
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aCpuTierRaisesHitsAndLowersTtftUnlessItsLinkIsSlow() {
        RunSummary gpuOnly = run("");
        RunSummary pcie = run(", kv_cpu_blocks: 20000");
        RunSummary slow = run(", kv_cpu_blocks: 20000, kv_transfer_bandwidth: 1");
        RunSummary pcieStep = run(", kv_cpu_blocks: 20000, kv_reload: step");
        RunSummary slowStep = run(", kv_cpu_blocks: 20000, kv_reload: step, kv_transfer_bandwidth: 1");
        for (RunSummary s : new RunSummary[] {gpuOnly, pcie, slow, pcieStep, slowStep}) {
            System.out.printf("hit %.3f (gpu %.3f cpu %.3f) ttft p50 %.1f p99 %.1f ms, offloaded %d reloaded %d, %d MB %.1f ms, thrash %d%n",
                    s.number("prefix_hit_rate"), s.kvTiers().gpuHitRate(), s.kvTiers().cpuHitRate(),
                            s.distribution("ttft_ms").p50(), s.distribution("ttft_ms").p99(),
                    s.kvTiers().offloadedBlocks(), s.kvTiers().reloadedBlocks(), s.kvTiers().transferBytes() / 1_000_000,
                    s.kvTiers().transferMs(), s.kvTiers().thrashedBlocks());
        }
        assertEquals(0, gpuOnly.kvTiers().reloadedBlocks());
        assertTrue(pcie.kvTiers().cpuHitRate() > 0.05, "the CPU tier serves hits");
        assertTrue(pcie.number("prefix_hit_rate") > gpuOnly.number("prefix_hit_rate") + 0.05,
                "total prefix hit rate rises");
        assertTrue(pcie.distribution("ttft_ms").p50() < gpuOnly.distribution("ttft_ms").p50(),
                "TTFT p50 falls over PCIe");
        assertTrue(slow.distribution("ttft_ms").p50() > gpuOnly.distribution("ttft_ms").p50(),
                "a 1 GB/s link makes TTFT p50 worse than GPU-only");
        assertTrue(pcieStep.distribution("ttft_ms").p50() < gpuOnly.distribution("ttft_ms").p50(),
                "also when reloads lengthen the step");
        assertTrue(slowStep.distribution("ttft_ms").p50() > gpuOnly.distribution("ttft_ms").p50(),
                "also when reloads lengthen the step");
    }

    @Test
    void theReferenceEnginesReloadOnAllocationFailureReloadsOnlyUnderPressure() {
        RunSummary gpuOnly = run("");
        RunSummary onFailure = run(", kv_cpu_blocks: 20000, kv_reload_on_allocation_failure: true");
        System.out.printf("on failure: hit %.3f (gpu %.3f cpu %.3f) ttft p50 %.1f ms, offloaded %d reloaded %d%n",
                onFailure.number("prefix_hit_rate"), onFailure.kvTiers().gpuHitRate(), onFailure.kvTiers().cpuHitRate(),
                onFailure.distribution("ttft_ms").p50(), onFailure.kvTiers().offloadedBlocks(),
                        onFailure.kvTiers().reloadedBlocks());
        assertTrue(onFailure.kvTiers().reloadedBlocks() > 0, "failed allocations reload prefixes from the CPU tier");
        assertEquals(0, onFailure.kvTiers().cpuHitRate(), "admissions never hit the CPU tier; reloaded blocks hit on the GPU");
        assertTrue(onFailure.number("prefix_hit_rate") > gpuOnly.number("prefix_hit_rate"),
                "the reloaded blocks are hit instead of recomputed");
    }
}
