package io.servesim.cluster;

import io.servesim.engine.KvBlockListener;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * A routing-visible {@link PrefixIndex} fed by one tier's block events (the GPU caches for
 * {@link Signal#PREFIX_CACHE}, the CPU tiers for {@link Signal#CPU_PREFIX_CACHE}) under that
 * signal's observability: immediate applies every stored/removed event at once, periodic buffers
 * them per instance and applies them at the scrape (incrementally, never copying a cache).
 */
final class PrefixFeed {
    private final PrefixIndex index;
    private final boolean buffered;
    private final LongArrayList[] pending;

    PrefixFeed(int instances, Observability.Mode mode) {
        this.index = new PrefixIndex(instances);
        this.buffered = mode.kind() == Observability.Kind.PERIODIC;
        this.pending = new LongArrayList[instances];
        for (int i = 0; i < instances; i++) {
            pending[i] = new LongArrayList();
        }
    }

    PrefixIndex index() {
        return index;
    }

    /** The listener instance {@code i}'s tier reports its block events to (one per attach). */
    KvBlockListener listener(int i) {
        return new KvBlockListener() {
            @Override
            public void stored(long hash) {
                onEvent(i, hash, true);
            }

            @Override
            public void removed(long hash) {
                onEvent(i, hash, false);
            }
        };
    }

    /** Instance {@code i} is gone: its buffered and indexed blocks are dropped. */
    void clear(int i) {
        pending[i].clear();
        index.clearInstance(i);
    }

    /** A scrape: the buffered events become visible. */
    void applyPending() {
        for (int i = 0; i < pending.length; i++) {
            LongArrayList ops = pending[i];
            for (int k = 0; k < ops.size(); k += 2) {
                if (ops.getLong(k + 1) > 0) {
                    index.stored(i, ops.getLong(k));
                } else {
                    index.removed(i, ops.getLong(k));
                }
            }
            ops.clear();
        }
    }

    private void onEvent(int i, long hash, boolean stored) {
        if (buffered) {
            // encode the operation in the list: hash then +1 (stored) / -1 (removed)
            pending[i].add(hash);
            pending[i].add(stored ? 1 : -1);
        } else if (stored) {
            index.stored(i, hash);
        } else {
            index.removed(i, hash);
        }
    }
}
