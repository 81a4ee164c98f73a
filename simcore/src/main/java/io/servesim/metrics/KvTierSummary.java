package io.servesim.metrics;

import io.servesim.engine.KvCache;
import io.servesim.engine.KvTierTotals;

/**
 * The run's KV cache per tier, summed over instances (the tiered-cache metrics of BLIS's macro plan:
 * per-tier hits, G.3's {@code CacheHitRate} "per-tier in Phase 4", transfers and {@code KVThrashingRate},
 * PR 14: inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md};
 * the 1 ms thrashing window is BLIS's core engine's, "Tiered Cache (GPU + CPU)": inference-sim/inference-sim
 * @ ce85515e, {@code docs/concepts/core-engine.md}). Hit rates are tokens found in the tier at
 * first admissions / prompt tokens looked up there (preempted requests' readmissions are left out,
 * see {@link KvCache#hitTokens()}), so {@code gpuHitRate + cpuHitRate} is the run's prefix hit
 * rate. Readmissions have their own per-tier rates, whose sum is the run's preempted prefix hit rate:
 * vLLM v1 records a request with {@code num_preemptions > 0} apart ({@code vllm/v1/core/kv_cache_manager.py}
 * {@code prefix_cache_stats}; {@code PrefixCacheStats.preempted_queries} / {@code preempted_hits} in
 * {@code vllm/v1/metrics/stats.py}), and so does its connector's {@code connector_prefix_cache_stats} for the
 * external (CPU) tier; a reload that serves a readmission would otherwise show in no tier's rate.
 * All zero without a CPU tier, except the GPU rates. The {@code kv_tiers} section of the run summary JSON; the metric
 * catalog ({@link MetricCatalog}) names and documents each.
 *
 * @param cpuKvBlocks       CPU-tier blocks per instance (0: no CPU tier)
 * @param gpuHitRate        prompt tokens found on the GPU / looked-up tokens
 * @param cpuHitRate        prompt tokens found in the CPU tier (and reloaded) / looked-up tokens
 * @param offloadedBlocks   blocks copied GPU -> CPU
 * @param reloadedBlocks    blocks copied CPU -> GPU
 * @param cpuEvictions      CPU-tier copies dropped by LRU
 * @param transferBytes     bytes over the GPU-CPU links, both directions
 * @param transferMs        time the links spent transferring, milliseconds
 * @param thrashedBlocks    blocks reloaded within 1 ms of being offloaded
 * @param thrashingRate     thrashedBlocks / reloadedBlocks (0 when nothing was reloaded)
 * @param preemptedGpuHitRate tokens found on the GPU at preempted requests' readmissions / tokens looked up there
 * @param preemptedCpuHitRate tokens found in the CPU tier (and reloaded) at readmissions / tokens looked up there
 */
public record KvTierSummary(long cpuKvBlocks, double gpuHitRate, double cpuHitRate, long offloadedBlocks,
                            long reloadedBlocks, long cpuEvictions, long transferBytes, double transferMs,
                            long thrashedBlocks, double thrashingRate, double preemptedGpuHitRate,
                            double preemptedCpuHitRate) {

    /** The tiers of {@code t}: every engine of the run, those autoscaling retired included. */
    public static KvTierSummary of(KvTierTotals t) {
        long hits = t.hitTokens();
        long cpuHits = t.cpuHitTokens();
        long queried = t.queriedTokens();
        return new KvTierSummary(t.cpuBlocks(), ratio(hits - cpuHits, queried), ratio(cpuHits, queried),
                t.offloadedBlocks(), t.reloadedBlocks(), t.cpuEvictions(), t.transferBytes(), t.transferUs() / 1000.0,
                t.thrashedBlocks(), ratio(t.thrashedBlocks(), t.reloadedBlocks()),
                ratio(t.preemptedHitTokens() - t.preemptedCpuHitTokens(), t.preemptedQueriedTokens()),
                ratio(t.preemptedCpuHitTokens(), t.preemptedQueriedTokens()));
    }

    private static double ratio(long n, long d) {
        return d == 0 ? 0 : (double) n / d;
    }
}
