package io.servesim.cluster;

import io.servesim.engine.Engine;
import io.servesim.engine.KvCache;
import io.servesim.engine.Request;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

/**
 * The GPU prefix-cache overlap read straight from the engines' own block indexes instead of a
 * router-side copy ({@link PrefixIndex}). Under immediate observability that copy holds, at every
 * moment, exactly the union of the attached engines' indexes (it applies every stored/removed event
 * as it happens), so walking each instance's own index from the first block until a miss gives the
 * same overlaps, as vLLM's own {@code find_longest_cache_hit} would on that instance. What differs is
 * the cost: the copy pays a hash-table insert and removal for every block stored or evicted anywhere,
 * the walk pays at most (prompt blocks + 1) probes per instance per decision. On the real Mooncake
 * conversation trace on 4 instances that is 1.9 M probes against 8.3 M upkeep operations; the walk's
 * cost grows with the fleet while the upkeep's does not, so it is used for fleets of at most
 * {@value #MAX_INSTANCES} engines (the copy above that). Either way every decision is the same.
 */
final class DirectPrefixOverlap {
    /** Largest fleet (engine slots) whose routers walk the engines' own indexes. */
    static final int MAX_INSTANCES = 8;

    private DirectPrefixOverlap() {
    }

    /** Whether a view over {@code engines} engine slots reading the GPU prefix cache under {@code mode} walks the engines' indexes. */
    static boolean applies(int engines, Observability.Mode mode) {
        return engines <= MAX_INSTANCES && mode.kind() == Observability.Kind.IMMEDIATE;
    }

    /** Leading full prompt blocks of {@code r} (at most {@code (prompt - 1) / blockSize}) cached in {@code kv}. */
    static int overlap(KvCache kv, Request r, int blockSize) {
        int max = (r.inputTokens() - 1) / blockSize;
        int b = 0;
        while (b < max && kv.containsHash(r.blockHash(b, blockSize))) {
            b++;
        }
        return b;
    }

    /** Distinct block hashes cached in any of {@code engines}' GPU caches (the copy's size; O(cached blocks)). */
    static int distinctHashes(Engine[] engines) {
        LongOpenHashSet all = new LongOpenHashSet();
        for (Engine e : engines) {
            if (e != null) {
                e.kvCache().forEachHash(all::add);
            }
        }
        return all.size();
    }
}
