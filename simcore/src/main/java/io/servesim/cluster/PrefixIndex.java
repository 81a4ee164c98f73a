package io.servesim.cluster;

import io.servesim.engine.Request;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import io.servesim.engine.LongIntTable;
import java.util.Arrays;

/**
 * The routing-visible prefix-cache index: for every cached block hash, the set of instances that
 * hold it. Because block hashes are chained (each names its whole prefix), a hash map over them is
 * a radix tree flattened, as in NVIDIA Dynamo's KV router ({@code lib/llm/src/kv_router/indexer.rs}):
 * walking a request's hashes in order and intersecting the instance sets gives each instance's
 * longest cached prefix. It is maintained incrementally from the instances' stored/removed block
 * events (never by copying an instance's cache), one bit per instance.
 */
public final class PrefixIndex {
    private final int words;
    private final LongIntTable slotOf = new LongIntTable(1024);
    private long[] bits;
    private int[] holders;
    private final IntArrayList freeSlots = new IntArrayList();
    private int nextSlot;
    private final long[] scratch;

    public PrefixIndex(int instances) {
        this.words = (instances + 63) >>> 6;
        this.bits = new long[64 * words];
        this.holders = new int[64];
        this.scratch = new long[words];
    }

    /** Instance {@code i} now caches block {@code hash}. */
    public void stored(int i, long hash) {
        int fresh = freeSlots.isEmpty() ? nextSlot : freeSlots.getInt(freeSlots.size() - 1);
        int slot = slotOf.putIfAbsent(hash, fresh);
        if (slot < 0) { // added under the fresh slot
            slot = fresh;
            if (freeSlots.isEmpty()) {
                nextSlot++;
            } else {
                freeSlots.popInt();
            }
            if (slot >= holders.length) {
                holders = Arrays.copyOf(holders, holders.length * 2);
                bits = Arrays.copyOf(bits, holders.length * words);
            }
        }
        int w = slot * words + (i >>> 6);
        long mask = 1L << (i & 63);
        if ((bits[w] & mask) == 0) {
            bits[w] |= mask;
            holders[slot]++;
        }
    }

    /** Instance {@code i} evicted block {@code hash}. */
    public void removed(int i, long hash) {
        int slot = slotOf.get(hash);
        if (slot < 0) {
            return;
        }
        int w = slot * words + (i >>> 6);
        long mask = 1L << (i & 63);
        if ((bits[w] & mask) != 0) {
            bits[w] &= ~mask;
            if (--holders[slot] == 0) {
                slotOf.remove(hash);
                freeSlots.add(slot);
            }
        }
    }

    /**
     * Fills {@code overlapBlocks[i]} with the number of leading full prompt blocks of {@code r}
     * cached at instance {@code i} (at most {@code (prompt - 1) / blockSize}, the most a prefix
     * hit can reuse) and returns the largest.
     */
    public int overlap(Request r, int blockSize, int[] overlapBlocks) {
        Arrays.fill(overlapBlocks, 0);
        if (slotOf.size() == 0) {
            return 0; // nothing cached anywhere (e.g. no prompt shares content): no hash to compute
        }
        int maxBlocks = (r.inputTokens() - 1) / blockSize;
        Arrays.fill(scratch, -1L);
        int b = 0;
        for (; b < maxBlocks; b++) {
            int slot = slotOf.get(r.blockHash(b, blockSize));
            if (slot < 0) {
                break;
            }
            boolean any = false;
            for (int w = 0; w < words; w++) {
                scratch[w] &= bits[slot * words + w];
                any |= scratch[w] != 0;
            }
            if (!any) {
                break;
            }
            for (int w = 0; w < words; w++) {
                long m = scratch[w];
                while (m != 0) {
                    int i = (w << 6) + Long.numberOfTrailingZeros(m);
                    if (i < overlapBlocks.length) {
                        overlapBlocks[i] = b + 1;
                    }
                    m &= m - 1;
                }
            }
        }
        int best = 0;
        for (int v : overlapBlocks) {
            best = Math.max(best, v);
        }
        return best;
    }

    /** Whether instance {@code i} holds block {@code hash}. */
    public boolean holds(int i, long hash) {
        int slot = slotOf.get(hash);
        return slot >= 0 && (bits[slot * words + (i >>> 6)] & (1L << (i & 63))) != 0;
    }

    /** Distinct block hashes cached anywhere. */
    public int size() {
        return slotOf.size();
    }

    /** Instance {@code i} is gone: it holds nothing any more (a scan of the index, once per retired replica). */
    public void clearInstance(int i) {
        it.unimi.dsi.fastutil.longs.LongArrayList held = new it.unimi.dsi.fastutil.longs.LongArrayList();
        int w = i >>> 6;
        long mask = 1L << (i & 63);
        slotOf.forEachKey(h -> {
            if ((bits[slotOf.get(h) * words + w] & mask) != 0) {
                held.add(h);
            }
        });
        for (int k = 0; k < held.size(); k++) {
            removed(i, held.getLong(k));
        }
    }
}
