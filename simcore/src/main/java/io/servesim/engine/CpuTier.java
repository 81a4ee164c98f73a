package io.servesim.engine;

import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;

/**
 * The CPU tier of one instance's KV cache: a fixed number of block slots holding copies of
 * prefix-cached GPU blocks, found by their chained block hash and evicted least recently used
 * first, like vLLM's CPU offloading store ({@code vllm/v1/kv_offload/lru_manager.py}: an
 * {@code OrderedDict} of block hashes, {@code touch} on lookup, LRU eviction when full) and BLIS's core
 * engine, "CPU tier: Simple capacity store for offloaded blocks" (BLIS core engine docs, "Tiered Cache
 * (GPU + CPU)": inference-sim/inference-sim @ ce85515e, {@code docs/concepts/core-engine.md}). The tier is
 * inclusive: a reloaded block keeps its CPU copy, so evicting it from the GPU again costs no transfer.
 *
 * <p>Slots live in primitive arrays with an intrusive LRU list (sentinel {@code capacity});
 * nothing is allocated per call. Each slot remembers when its copy was written, for thrashing
 * detection.
 */
final class CpuTier {
    /**
     * Above this many slots the debug check counts slots but skips its O(capacity) walk of the LRU list, as the GPU
     * cache's walk is skipped above {@code Invariants}' limit: a walk after every step of a 20,000-slot tier took
     * 26 of a test's 27 seconds.
     */
    private static final int FULL_WALK_LIMIT = 4096;
    private final int capacity;
    private final long[] hash;
    private final long[] storedUs;
    private final int[] prev;
    private final int[] next;
    private final int sentinel;
    private final int[] freeSlots;
    private int freeSlotCount;
    private final Long2IntOpenHashMap index;
    private long evictions;
    /** Observes copies stored and dropped (a routing-visible index of the tier), or null. */
    private KvBlockListener listener;

    CpuTier(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("CPU tier capacity must be > 0, got " + capacity);
        }
        this.capacity = capacity;
        this.hash = new long[capacity];
        this.storedUs = new long[capacity];
        this.prev = new int[capacity + 1];
        this.next = new int[capacity + 1];
        this.sentinel = capacity;
        prev[sentinel] = sentinel;
        next[sentinel] = sentinel;
        this.freeSlots = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            freeSlots[i] = capacity - 1 - i;
        }
        this.freeSlotCount = capacity;
        this.index = new Long2IntOpenHashMap(capacity, 0.5f);
        index.defaultReturnValue(-1);
    }

    void setListener(KvBlockListener listener) {
        this.listener = listener;
    }

    int capacity() { return capacity; }
    /** Blocks holding a copy. */
    int residentBlocks() { return index.size(); }
    /** Copies dropped to make room (LRU). */
    long evictions() { return evictions; }

    /** The slot holding {@code blockHash}, or -1. */
    int slotOf(long blockHash) {
        return index.get(blockHash);
    }

    /**
     * Stores a copy of the block {@code blockHash} written at {@code nowUs}, evicting the least
     * recently used copy when full. Returns false, and only refreshes its recency, when a copy is
     * already resident (nothing is transferred).
     */
    boolean store(long blockHash, long nowUs) {
        int slot = index.get(blockHash);
        if (slot >= 0) {
            touch(slot);
            return false;
        }
        if (freeSlotCount == 0) {
            int lru = next[sentinel];
            unlink(lru);
            index.remove(hash[lru]);
            freeSlots[freeSlotCount++] = lru;
            evictions++;
            if (listener != null) {
                listener.removed(hash[lru]);
            }
        }
        slot = freeSlots[--freeSlotCount];
        hash[slot] = blockHash;
        storedUs[slot] = nowUs;
        index.put(blockHash, slot);
        linkTail(slot);
        if (listener != null) {
            listener.stored(blockHash);
        }
        return true;
    }

    /** When the copy in {@code slot} was written. */
    long storedUs(int slot) {
        return storedUs[slot];
    }

    /** Marks {@code slot} most recently used (a lookup hit it). */
    void touch(int slot) {
        unlink(slot);
        linkTail(slot);
    }

    private void linkTail(int slot) {
        int last = prev[sentinel];
        next[last] = slot;
        prev[slot] = last;
        next[slot] = sentinel;
        prev[sentinel] = slot;
    }

    private void unlink(int slot) {
        next[prev[slot]] = next[slot];
        prev[next[slot]] = prev[slot];
    }

    /**
     * Per-tier conservation: resident + free slots == capacity, the LRU list holds exactly the
     * resident slots, and no slot is both resident and free. O(capacity), up to {@link #FULL_WALK_LIMIT} slots: debug
     * mode only.
     */
    void checkInvariants() {
        if (index.size() + freeSlotCount != capacity) {
            throw new IllegalStateException("INV-4 (CPU tier): " + index.size() + " resident + " + freeSlotCount
                    + " free != capacity " + capacity);
        }
        if (capacity > FULL_WALK_LIMIT) {
            return;
        }
        boolean[] listed = new boolean[capacity];
        int n = 0;
        for (int s = next[sentinel]; s != sentinel; s = next[s]) {
            if (listed[s] || index.get(hash[s]) != s) {
                throw new IllegalStateException("INV-4 (CPU tier): slot " + s + " listed twice or not indexed");
            }
            listed[s] = true;
            n++;
        }
        for (int i = 0; i < freeSlotCount; i++) {
            if (listed[freeSlots[i]]) {
                throw new IllegalStateException("INV-4 (CPU tier): slot " + freeSlots[i] + " both resident and free");
            }
        }
        if (n != index.size()) {
            throw new IllegalStateException("INV-4 (CPU tier): LRU list holds " + n + " slots, index " + index.size());
        }
    }
}
