package io.servesim.engine;

import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;

/**
 * Paged KV cache of one instance with automatic prefix caching, after vLLM v1's
 * {@code KVCacheManager} / {@code BlockPool} ({@code vllm/v1/core/block_pool.py}):
 * <ul>
 *   <li>fixed-size blocks of {@code blockSize} tokens, each with a reference count;</li>
 *   <li>full blocks are registered under a chained hash (parent hash + block content) so a later
 *       request with the same prefix reuses them without recomputation;</li>
 *   <li>a block whose count drops to 0 joins the tail of an LRU free queue but keeps its hash, so it
 *       stays hit-able until it is popped from the head for reuse (then its hash is evicted);</li>
 *   <li>a request's blocks are freed in reverse order, so its tail blocks are evicted first;</li>
 *   <li>allocation is all-or-nothing: the number of free blocks is checked before any state changes
 *       (vLLM {@code allocate_slots} returns None without side effects).</li>
 * </ul>
 * State lives in primitive arrays with an intrusive doubly linked free list; nothing is allocated
 * per call.
 */
public final class KvCache {
    private final int totalBlocks;
    private final int blockSize;
    private final boolean prefixCaching;
    /**
     * Per-block fields packed {@value #STRIDE} ints per block (LRU links, reference count, hashed
     * flag), so a free-list pop or release touches one cache line per block instead of one per field
     * array: the free list is walked in LRU order, which scatters across the cache after warm-up.
     */
    private final int[] meta;
    private final long[] hash;
    private final int sentinel;
    private static final int PREV = 0;
    private static final int NEXT = 1;
    private static final int REF = 2;
    private static final int HASHED = 3;
    private static final int STRIDE = 4;
    private final Long2IntOpenHashMap index;
    private final int[] hitScratch;
    private Request lastLookup;
    private int lastLookupHits;
    private int freeCount;
    private Listener listener;
    private long hitTokens;
    private long queriedTokens;
    private long allocationFailures;

    /** Block-hash events for a routing-visible prefix index (NVIDIA Dynamo's KV events). */
    public interface Listener {
        /** {@code hash} became hit-able at this instance. */
        void stored(long hash);

        /** {@code hash} was evicted from this instance. */
        void removed(long hash);
    }

    /** Observes block registrations and evictions (null: none). */
    public void setListener(Listener listener) {
        this.listener = listener;
    }

    public KvCache(int totalBlocks, int blockSize, boolean prefixCaching) {
        if (totalBlocks <= 0 || blockSize <= 0) {
            throw new IllegalArgumentException("totalBlocks and blockSize must be > 0");
        }
        this.totalBlocks = totalBlocks;
        this.blockSize = blockSize;
        this.prefixCaching = prefixCaching;
        this.meta = new int[(totalBlocks + 1) * STRIDE];
        this.hash = new long[totalBlocks];
        this.sentinel = totalBlocks;
        // Load factor 0.5: removals (every reuse of a cached block) use backward-shift deletion,
        // whose cost grows with cluster length; a sparser table keeps clusters short.
        this.index = new Long2IntOpenHashMap(prefixCaching ? totalBlocks : 4, 0.5f);
        this.index.defaultReturnValue(-1);
        this.hitScratch = new int[totalBlocks];
        meta[sentinel * STRIDE + PREV] = sentinel;
        meta[sentinel * STRIDE + NEXT] = sentinel;
        for (int b = 0; b < totalBlocks; b++) {
            linkTail(b);
        }
        freeCount = totalBlocks;
    }

    public int blockSize() { return blockSize; }
    public int totalBlocks() { return totalBlocks; }
    /** Blocks with reference count 0 (some may still hold reusable cached content). */
    public int freeBlocks() { return freeCount; }
    /** Blocks referenced by at least one running request. */
    public int usedBlocks() { return totalBlocks - freeCount; }
    public double utilization() { return (double) usedBlocks() / totalBlocks; }
    public boolean prefixCaching() { return prefixCaching; }
    /** Prompt tokens found in the cache at admission, summed over admissions. */
    public long hitTokens() { return hitTokens; }
    /** Prompt tokens looked up at admission, summed over admissions. */
    public long queriedTokens() { return queriedTokens; }
    public long allocationFailures() { return allocationFailures; }
    /** Number of distinct block hashes currently registered (routing-visible prefix state). */
    public int cachedBlockHashes() { return index.size(); }

    /** Blocks needed to hold {@code tokens} tokens. */
    public int blocksFor(long tokens) {
        return (int) ((tokens + blockSize - 1) / blockSize);
    }

    /**
     * Counts the leading full blocks of {@code r}'s tokens (prompt, plus output generated before a
     * preemption) present in the cache. At most {@code (numTokens - 1) / blockSize} blocks count: vLLM always recomputes the last prompt
     * token so the step produces logits ({@code KVCacheManager.get_computed_blocks}).
     * The hits are remembered for an immediately following {@link #allocateNew}.
     */
    public int lookupPrefix(Request r) {
        lastLookup = r;
        lastLookupHits = 0;
        if (!prefixCaching) {
            return 0;
        }
        int max = (r.numTokens() - 1) / blockSize;
        int n = 0;
        while (n < max) {
            int blk = index.get(r.blockHash(n, blockSize));
            if (blk < 0) {
                break;
            }
            hitScratch[n++] = blk;
        }
        lastLookupHits = n;
        return n;
    }

    /** True if {@code hash} is a registered block hash (used by cache-aware routing). */
    public boolean containsHash(long blockHash) {
        return index.containsKey(blockHash);
    }

    /**
     * Admits a waiting request: reuses the {@code cachedBlocks} hits of the preceding
     * {@link #lookupPrefix} and allocates fresh blocks so that tokens {@code [0, endToken)} are
     * backed. All-or-nothing.
     */
    public boolean allocateNew(Request r, int cachedBlocks, int endToken) {
        if (lastLookup != r || cachedBlocks > lastLookupHits) {
            throw new IllegalStateException("allocateNew without a matching lookupPrefix for " + r);
        }
        if (!r.blocks.isEmpty()) {
            throw new IllegalStateException("request already holds blocks: " + r);
        }
        int needNew = blocksFor(endToken) - cachedBlocks;
        int evictableHits = 0;
        for (int i = 0; i < cachedBlocks; i++) {
            if (meta[hitScratch[i] * STRIDE + REF] == 0) {
                evictableHits++;
            }
        }
        if (needNew + evictableHits > freeCount) {
            allocationFailures++;
            return false;
        }
        // Room for the whole prompt and target output up front: decode then appends a block every
        // blockSize tokens without regrowing the list (an array copy per growth step otherwise).
        r.blocks.ensureCapacity(blocksFor((long) r.inputTokens() + r.targetOutputTokens()));
        for (int i = 0; i < cachedBlocks; i++) {
            int blk = hitScratch[i];
            if (meta[blk * STRIDE + REF]++ == 0) {
                unlink(blk);
                freeCount--;
            }
            r.blocks.add(blk);
        }
        for (int i = 0; i < needNew; i++) {
            r.blocks.add(popFree());
        }
        r.blockTokens = r.blocks.size() * blockSize;
        r.registeredBlocks = cachedBlocks;
        hitTokens += (long) cachedBlocks * blockSize;
        queriedTokens += r.numTokens();
        lastLookup = null;
        register(r, endToken);
        return true;
    }

    /**
     * Fast path of {@link #allocate} for the per-step call on every running request: nothing to do
     * when the request's blocks already hold {@code endToken} tokens and no block becomes full.
     */
    public boolean ensure(Request r, int endToken) {
        // "no new full block to register": limit / blockSize <= registeredBlocks, without the per-step
        // integer division (both sides are non-negative).
        if (endToken <= r.blockTokens
                && (!prefixCaching || registrationLimit(r, endToken) < (r.registeredBlocks + 1) * blockSize)) {
            return true;
        }
        return allocate(r, endToken);
    }

    /** Extends a running request's allocation so tokens {@code [0, endToken)} are backed. All-or-nothing. */
    public boolean allocate(Request r, int endToken) {
        int need = blocksFor(endToken) - r.blocks.size();
        if (need > freeCount) {
            allocationFailures++;
            return false;
        }
        for (int i = 0; i < need; i++) {
            r.blocks.add(popFree());
        }
        r.blockTokens = r.blocks.size() * blockSize;
        register(r, endToken);
        return true;
    }

    /** Frees all of {@code r}'s blocks (tail first); their hashes stay reusable until evicted. */
    public void release(Request r) {
        for (int i = r.blocks.size() - 1; i >= 0; i--) {
            int blk = r.blocks.getInt(i);
            if (--meta[blk * STRIDE + REF] == 0) {
                linkTail(blk);
                freeCount++;
            } else if (meta[blk * STRIDE + REF] < 0) {
                throw new IllegalStateException("block " + blk + " freed twice");
            }
        }
        r.blocks.clear();
        r.blockTokens = 0;
        r.registeredBlocks = 0;
    }

    /**
     * Frees a preempted request's blocks after registering every full block it computed, output
     * included, so its recomputation can hit them while they stay cached (vLLM v1 caches all full
     * blocks; see {@link Request#outputReusable()} for why output blocks are otherwise deferred).
     */
    public void releasePreempted(Request r, int computedTokens) {
        if (prefixCaching) {
            registerUpTo(r, computedTokens / blockSize);
        }
        release(r);
    }

    /**
     * Registers the full blocks below {@code endToken} under their chained hashes, up to the
     * {@link #registrationLimit}.
     */
    private void register(Request r, int endToken) {
        if (!prefixCaching) {
            return;
        }
        registerUpTo(r, registrationLimit(r, endToken) / blockSize);
    }

    /**
     * Tokens whose full blocks are worth indexing now: all of them when a later request may repeat
     * this one's prompt and output, else only the prompt's shared part (unique content and output
     * cannot be hit by anyone else; they are indexed on preemption for the request's own recompute).
     * Unindexed blocks are cached and evicted exactly like indexed ones, so hit rates are unchanged.
     */
    private static int registrationLimit(Request r, int endToken) {
        return r.outputReusable() ? endToken : Math.min(endToken, r.sharedInputTokens());
    }

    private void registerUpTo(Request r, int full) {
        for (int b = r.registeredBlocks; b < full; b++) {
            int blk = r.blocks.getInt(b);
            if (meta[blk * STRIDE + HASHED] != 0) {
                continue;
            }
            long h = r.blockHash(b, blockSize);
            if (index.putIfAbsent(h, blk) == -1) {
                hash[blk] = h;
                meta[blk * STRIDE + HASHED] = 1;
                if (listener != null) {
                    listener.stored(h);
                }
            }
        }
        if (full > r.registeredBlocks) {
            r.registeredBlocks = full;
        }
    }

    private int popFree() {
        int blk = meta[sentinel * STRIDE + NEXT];
        if (blk == sentinel) {
            throw new IllegalStateException("free list empty with freeCount=" + freeCount);
        }
        unlink(blk);
        freeCount--;
        if (meta[blk * STRIDE + HASHED] != 0) {
            if (index.remove(hash[blk], blk) && listener != null) {
                listener.removed(hash[blk]);
            }
            meta[blk * STRIDE + HASHED] = 0;
        }
        meta[blk * STRIDE + REF] = 1;
        return blk;
    }

    private void linkTail(int blk) {
        int last = meta[sentinel * STRIDE + PREV];
        meta[last * STRIDE + NEXT] = blk;
        meta[blk * STRIDE + PREV] = last;
        meta[blk * STRIDE + NEXT] = sentinel;
        meta[sentinel * STRIDE + PREV] = blk;
    }

    private void unlink(int blk) {
        int before = meta[blk * STRIDE + PREV];
        int after = meta[blk * STRIDE + NEXT];
        meta[before * STRIDE + NEXT] = after;
        meta[after * STRIDE + PREV] = before;
    }

    /**
     * INV-4: every block is either referenced or on the free list, never both, and the free list
     * holds exactly {@code freeBlocks()} blocks. O(total blocks): debug mode only.
     */
    public void checkInvariants() {
        int listed = 0;
        for (int b = meta[sentinel * STRIDE + NEXT]; b != sentinel; b = meta[b * STRIDE + NEXT]) {
            if (meta[b * STRIDE + REF] != 0) {
                throw new IllegalStateException("INV-4: block " + b + " on free list with refCount " + meta[b * STRIDE + REF]);
            }
            listed++;
        }
        int referenced = 0;
        for (int b = 0; b < totalBlocks; b++) {
            if (meta[b * STRIDE + REF] > 0) {
                referenced++;
            }
        }
        if (listed != freeCount || referenced + listed != totalBlocks) {
            throw new IllegalStateException("INV-4: referenced " + referenced + " + free " + listed
                    + " != total " + totalBlocks + " (freeCount " + freeCount + ")");
        }
    }
}
