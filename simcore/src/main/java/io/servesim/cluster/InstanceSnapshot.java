package io.servesim.cluster;

/**
 * An immutable view of one instance as the control plane saw it at {@code timeUs} (each field
 * subject to its signal's observability). Routing policies read the same values through
 * {@link ClusterView}'s primitive accessors without allocating; this record is what decision
 * traces and tests keep.
 *
 * @param tiers the KV tiers' extended fields (all 0 without a CPU tier)
 */
public record InstanceSnapshot(int instance, long timeUs, int queueDepth, int running, double kvUtilization,
                               int freeKvBlocks, long inFlight, double recentTtftUs, double recentTpotUs,
                               double cacheHitRate, double estimatedWaitUs, Tiers tiers) {
    /**
     * Per-tier state, the extended fields of BLIS's {@code InstanceSnapshot} (BLIS macro plan, G.2: an
     * {@code Extended} map "for Phase 4+ observables", e.g. {@code "CPUKVUtilization"}:
     * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md})
     * for a router that scores CPU-tier hits apart from GPU hits.
     *
     * @param kvCpuUtilization share of the CPU tier's blocks holding a copy ({@link Signal#KV_CPU_UTILIZATION})
     * @param gpuHitRate       prompt tokens found in the GPU cache / looked up ({@link Signal#GPU_HIT_RATE})
     * @param cpuHitRate       prompt tokens found only in the CPU tier / looked up ({@link Signal#CPU_HIT_RATE});
     *                         the two add up to {@code cacheHitRate}
     */
    public record Tiers(double kvCpuUtilization, double gpuHitRate, double cpuHitRate) {
    }
}
