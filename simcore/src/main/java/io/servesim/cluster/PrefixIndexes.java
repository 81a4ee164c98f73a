package io.servesim.cluster;

import io.servesim.engine.Engine;
import io.servesim.engine.KvCache;
import io.servesim.engine.Request;
import java.util.Arrays;
import java.util.Set;

/**
 * The prefix-cache block indexes a router reads, each kept only when a policy reads its signal: the GPU caches'
 * ({@link Signal#PREFIX_CACHE}), fed by the engines' block events ({@link PrefixFeed}) or, where that is cheaper, read
 * by walking the engines' own indexes ({@link DirectPrefixOverlap}); and the CPU tiers' ({@link Signal#CPU_PREFIX_CACHE}).
 */
final class PrefixIndexes {
    /** The GPU caches' index, or null when no policy reads it or when it is read from the engines ({@link #direct}). */
    private final PrefixFeed gpu;
    private final boolean direct;
    /** The CPU tiers' index, or null when no policy reads it. */
    private final PrefixFeed cpu;
    /** Overlap per engine id, reused by every call of {@link #gpuOverlapById}. */
    private final int[] byId;

    PrefixIndexes(int engines, Observability observability, Set<Signal> read) {
        this.direct = read.contains(Signal.PREFIX_CACHE)
                && DirectPrefixOverlap.applies(engines, observability.mode(Signal.PREFIX_CACHE));
        this.gpu = read.contains(Signal.PREFIX_CACHE) && !direct
                ? new PrefixFeed(engines, observability.mode(Signal.PREFIX_CACHE)) : null;
        this.cpu = read.contains(Signal.CPU_PREFIX_CACHE)
                ? new PrefixFeed(engines, observability.mode(Signal.CPU_PREFIX_CACHE)) : null;
        this.byId = new int[engines];
    }

    /** Engine {@code id} joins: its tiers' block events feed the indexes that are kept. */
    void attach(int id, KvCache kv) {
        if (gpu != null) {
            kv.setListener(gpu.listener(id));
        }
        if (cpu != null && kv.offload() != null) {
            kv.offload().setListener(cpu.listener(id));
        }
    }

    /** Engine {@code id} is gone: none of its blocks stays indexed. */
    void clear(int id) {
        if (gpu != null) {
            gpu.clear(id);
        }
        if (cpu != null) {
            cpu.clear(id);
        }
    }

    /**
     * Per engine id, the leading prompt blocks of {@code r} its GPU cache holds (as seen), for the engine ids of
     * {@code view}'s positions (all zeros when no policy reads the index); the array is reused by the next call.
     */
    int[] gpuOverlapById(Request r, int blockSizeTokens, Engine[] engines, ClusterView view) {
        if (direct) {
            for (int k = 0, n = view.instances(); k < n; k++) {
                int id = view.id(k);
                byId[id] = DirectPrefixOverlap.overlap(engines[id].kvCache(), r, blockSizeTokens);
            }
        } else if (gpu == null) {
            Arrays.fill(byId, 0);
        } else {
            gpu.index().overlap(r, blockSizeTokens, byId);
        }
        return byId;
    }

    /** Whether engine {@code id}'s CPU tier holds block {@code hash} (as seen); false when no policy reads the index. */
    boolean cpuHolds(int id, long hash) {
        return cpu != null && cpu.index().holds(id, hash);
    }

    /** Whether the GPU caches' prefixes are looked up (a policy reads {@link Signal#PREFIX_CACHE}). */
    boolean gpuIndexed() {
        return direct || gpu != null;
    }

    /** Whether the CPU tiers are indexed. */
    boolean cpuIndexed() {
        return cpu != null;
    }

    /** {@link Signal#PREFIX_CACHE}'s value: distinct blocks indexed over the GPU caches. */
    double gpuSize(Engine[] engines) {
        return direct ? DirectPrefixOverlap.distinctHashes(engines) : gpu == null ? 0 : gpu.index().size();
    }

    /** {@link Signal#CPU_PREFIX_CACHE}'s value: distinct blocks indexed over the CPU tiers. */
    double cpuSize() {
        return cpu == null ? 0 : cpu.index().size();
    }

    /** A scrape of {@code s} (one of the two prefix signals): the block events buffered since the last one apply. */
    void applyPending(Signal s) {
        PrefixFeed feed = s == Signal.PREFIX_CACHE ? gpu : cpu;
        if (feed != null) {
            feed.applyPending();
        }
    }
}
