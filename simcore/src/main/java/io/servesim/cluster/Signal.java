package io.servesim.cluster;

import java.util.Locale;

/**
 * Instance state a control-plane policy may read, each with its own observability mode (see
 * {@link Observability}). Names are the config keys ({@code observability.kv_utilization}).
 */
public enum Signal {
    /** Requests in the wait queue. */
    QUEUE_DEPTH,
    /** Requests in the running batch. */
    RUNNING,
    /** Share of KV blocks referenced by running requests. */
    KV_UTILIZATION,
    /** KV blocks with reference count 0. */
    FREE_KV_BLOCKS,
    /** Requests routed to the instance that have not left (incl. those still in queueing delay). */
    IN_FLIGHT,
    /** Exponentially weighted mean TTFT of recent completions (us). */
    RECENT_TTFT,
    /** Exponentially weighted mean TPOT of recent completions (us). */
    RECENT_TPOT,
    /** Prefix-cache hit rate so far (hit tokens / looked-up tokens). */
    CACHE_HIT_RATE,
    /** Estimated queueing wait: waiting requests x recent mean step time / seqs per step (us). */
    ESTIMATED_WAIT,
    /** Which block hashes the instance caches (for cache-affinity routing). */
    PREFIX_CACHE,
    /** Share of the CPU KV tier's blocks holding a copy (0 without a CPU tier). */
    KV_CPU_UTILIZATION,
    /** Of {@link #CACHE_HIT_RATE}, the tokens found in the GPU cache. */
    GPU_HIT_RATE,
    /** Of {@link #CACHE_HIT_RATE}, the tokens found only in the CPU tier (and reloaded). */
    CPU_HIT_RATE,
    /** Which block hashes the instance's CPU KV tier holds (empty without one). */
    CPU_PREFIX_CACHE;

    private static final Signal[] VALUES = values();

    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    static Signal[] all() {
        return VALUES;
    }
}
