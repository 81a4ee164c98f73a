package io.servesim.policy.api;

/**
 * The instances a routing decision chooses among, as the control plane sees them now: positions
 * {@code 0 .. count() - 1} (every instance of a fixed fleet, or the ready replicas of an autoscaled one, by ascending
 * id). Each signal is read through its observability mode ({@code cluster.observability}: immediate, a periodic
 * scrape, or an on-demand pull); a routing policy pays the pull latency of the on-demand signals its source reads,
 * and the cluster keeps its prefix indexes only when the source reads {@link #cachedPrefixBlocks} or
 * {@link #cpuCachedPrefixBlocks}: which signals a code policy reads is decided from the methods its source calls.
 * A position outside {@code 0 .. count() - 1} fails the run. Valid during the call that receives it.
 */
public interface Instances {
    /** How many instances the request may go to. */
    int count();

    /** The engine id at {@code position} (stable while the replica lives; state keyed by instance uses it). */
    int id(int position);

    /** Requests waiting in the instance's queue (signal {@code queue_depth}). */
    int queueDepth(int position);

    /** Requests in its running batch (signal {@code running}). */
    int running(int position);

    /**
     * Requests sent there that are not waiting or running yet: in queueing delay or on their way (the router's own
     * bookkeeping, always current; no signal).
     */
    long inTransit(int position);

    /** BLIS's effective load: {@code queueDepth + running + inTransit} (signals {@code queue_depth}, {@code running}). */
    long load(int position);

    /** Requests routed there that have not left (signal {@code in_flight}). */
    long inFlight(int position);

    /** Share of its KV blocks in use, in [0, 1] (signal {@code kv_utilization}). */
    double kvUtilization(int position);

    /** Its free KV blocks (signal {@code free_kv_blocks}). */
    int freeKvBlocks(int position);

    /** Its KV blocks in all (no signal). */
    int totalKvBlocks(int position);

    /** Exponentially weighted mean TTFT of its recent completions, microseconds (signal {@code recent_ttft}). */
    double recentTtftUs(int position);

    /** Exponentially weighted mean TPOT of its recent completions, microseconds (signal {@code recent_tpot}). */
    double recentTpotUs(int position);

    /** Its prefix-cache hit rate so far (signal {@code cache_hit_rate}). */
    double cacheHitRate(int position);

    /** Its estimated queueing wait, microseconds (signal {@code estimated_wait}). */
    double estimatedWaitUs(int position);

    /** Leading prompt blocks of this request cached in its GPU KV cache (signal {@code prefix_cache}). */
    int cachedPrefixBlocks(int position);

    /**
     * Prompt blocks of this request right after its GPU-cached ones that only its CPU KV tier holds (signals
     * {@code prefix_cache}, {@code cpu_prefix_cache}; 0 without a tier).
     */
    int cpuCachedPrefixBlocks(int position);

    /** Share of its CPU KV tier holding a copy (signal {@code kv_cpu_utilization}; 0 without a tier). */
    double kvCpuUtilization(int position);

    /** Of its cache hits, the share found in the GPU cache (signal {@code gpu_hit_rate}). */
    double gpuHitRate(int position);

    /** Of its cache hits, the share found only in the CPU tier (signal {@code cpu_hit_rate}). */
    double cpuHitRate(int position);

    /** Tokens per KV block, the same for every instance. */
    int blockSizeTokens();
}
