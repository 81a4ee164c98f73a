package io.servesim.engine;

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
 *
 * <p>Only blocks whose content is indexed (hashed) need an identity: a block nobody can hit is
 * interchangeable with any other. Such anonymous blocks are held by a request as {@code -1} entries
 * and sit in the free queue as runs (one node counting consecutive anonymous blocks), while hashed
 * blocks are nodes of their own; a block id is handed out when a block is registered and taken back
 * when it is evicted. The queue thus holds exactly vLLM's sequence of free blocks, so which hashed
 * block is evicted when is unchanged, but allocating and freeing the bulk of blocks (unique prompts,
 * outputs) is a counter update instead of a walk over scattered per-block state.
 *
 * <p>With a CPU tier ({@link KvOffload}), a hashed block evicted from the free queue may be copied
 * to it, and a prefix lookup continues into it after the GPU hits; those blocks are reloaded into
 * fresh GPU blocks on admission; or, with {@code kv_reload_on_allocation_failure}, the lookup stops at
 * the GPU and the tier is consulted when an allocation fails ({@link FailureReload}). Without one,
 * none of this runs (one null check per eviction).
 */
public final class KvCache {
    private final int totalBlocks;
    private final int blockSize;
    private final boolean prefixCaching;
    /** The free blocks in LRU order; hashed blocks' reference counts. */
    private final FreeQueue queue;
    private final long[] hash;
    /** Block ids not currently naming a hashed block. */
    private final int[] freeIds;
    private int freeIdCount;
    private final LongIntTable index;
    private final int[] hitScratch;
    private Request lastLookup;
    private int lastLookupHits;
    private int lastLookupCpuHits;
    /** The CPU tier, or null. */
    private final KvOffload offload;
    /** With {@code kv_reload_on_allocation_failure}: the CPU tier is consulted on allocation failure only. */
    private final FailureReload failureReload;
    private long cpuHitTokens;
    private long preemptedCpuHitTokens;
    private long lastReloadEndUs;
    /** Anonymous blocks held by requests (for the conservation check). */
    private long anonymousHeld;
    private KvBlockListener listener;
    private long hitTokens;
    private long queriedTokens;
    private long preemptedHitTokens;
    private long preemptedQueriedTokens;
    private long allocationFailures;
    /** Sum of the slots {@link #registerUpTo} touched ahead (kept so the loads are not optimized away). */
    private long prefetchSink;

    /**
     * The SGLang core's radix tree, or null: with one, this cache is only its page pool (anonymous pages, no index of
     * its own) and the routing-visible prefix state ({@link #containsHash}, {@link #forEachHash}, the listener's
     * events) is the tree's ({@link RadixCache}).
     */
    private RadixCache radix;

    /** Observes block registrations and evictions (null: none). */
    public void setListener(KvBlockListener listener) {
        this.listener = listener;
    }

    /** The block-event listener ({@link #setListener}), or null (the radix tree reports its pages' events to it). */
    KvBlockListener listener() {
        return listener;
    }

    /** From now on this cache is the page pool of {@code tree} (once, before any request; a cache without its own index). */
    void poolFor(RadixCache tree) {
        if (radix != null || prefixCaching) {
            throw new IllegalStateException("a radix tree's page pool has no prefix index of its own, and one tree");
        }
        radix = tree;
    }

    /** Takes {@code pages} free pages for the radix tree or a request of the SGLang core (at most {@link #freeBlocks()}). */
    void takePages(int pages) {
        if (pages > queue.freeCount()) {
            throw new IllegalStateException("take " + pages + " pages with " + queue.freeCount() + " free");
        }
        if (pages > 0) {
            popFree(pages);
            anonymousHeld += pages;
        }
    }

    /** Returns {@code pages} pages taken with {@link #takePages} to the free queue. */
    void returnPages(int pages) {
        if (pages > 0) {
            queue.releaseAnonymous(pages);
            anonymousHeld -= pages;
        }
    }

    /** The SGLang core admitted {@code r} with {@code hits} of its {@code queried} tokens found in the radix tree. */
    void countAdmission(Request r, long hits, long queried) {
        countLookup(r, hits, queried);
    }

    /** Most blocks one cache can index: its free-queue node array must stay within Java's largest array. */
    public static final int MAX_BLOCKS = ((Integer.MAX_VALUE - 8) / FreeQueue.STRIDE - 2) / 2;

    public KvCache(int totalBlocks, int blockSize, boolean prefixCaching) {
        this(totalBlocks, blockSize, prefixCaching, KvTierConfig.OFF);
    }

    /** A cache with the CPU tier {@code tiers} under it (resolved; {@link KvTierConfig#OFF}: none). */
    public KvCache(int totalBlocks, int blockSize, boolean prefixCaching, KvTierConfig tiers) {
        if (totalBlocks <= 0 || blockSize <= 0 || totalBlocks > MAX_BLOCKS) {
            throw new IllegalArgumentException("totalBlocks must be in [1, " + MAX_BLOCKS + "] and blockSize > 0");
        }
        this.totalBlocks = totalBlocks;
        this.blockSize = blockSize;
        this.prefixCaching = prefixCaching;
        this.queue = new FreeQueue(totalBlocks);
        this.hash = new long[totalBlocks];
        this.index = new LongIntTable(KvCacheFootprint.indexExpected(totalBlocks, prefixCaching));
        this.hitScratch = new int[totalBlocks];
        this.freeIds = new int[totalBlocks];
        for (int b = 0; b < totalBlocks; b++) {
            freeIds[b] = totalBlocks - 1 - b;
        }
        this.freeIdCount = totalBlocks;
        this.offload = tiers.enabled() ? new KvOffload(tiers, totalBlocks) : null;
        this.failureReload = offload != null && tiers.reloadOnAllocationFailure() ? new FailureReload(this, offload) : null;
    }

    public int blockSize() { return blockSize; }
    public int totalBlocks() { return totalBlocks; }
    /** Blocks with reference count 0 (some may still hold reusable cached content). */
    public int freeBlocks() { return queue.freeCount(); }
    /**
     * From now on {@link #freeBlocks()} is kept in {@code board[slot]}, where a router reading every
     * instance's KV utilization per decision finds the counts in one contiguous array instead of behind
     * three objects per instance (once per cache).
     */
    public void publishFreeBlocksTo(int[] board, int slot) { queue.publishCountTo(board, slot); }
    /** Blocks referenced by at least one running request. */
    public int usedBlocks() { return totalBlocks - queue.freeCount(); }
    public double utilization() { return (double) usedBlocks() / totalBlocks; }
    public boolean prefixCaching() { return prefixCaching; }
    /**
     * Prompt tokens found in the cache (either tier) at the first admission of a request, summed.
     * A preempted request's readmissions, which mostly re-hit the blocks it computed itself, are
     * counted apart ({@link #preemptedHitTokens()}), as vLLM v1's {@code PrefixCacheStats} records
     * a request with {@code num_preemptions > 0} under {@code preempted_queries}/{@code preempted_hits}
     * ({@code vllm/v1/core/kv_cache_manager.py} {@code get_computed_blocks}, {@code vllm/v1/metrics/stats.py}),
     * and its exported hit rate leaves them out: otherwise a policy that preempts more looks better.
     */
    public long hitTokens() { return hitTokens; }
    /** Prompt tokens looked up at first admissions, summed (the denominator of {@link #hitTokens()}). */
    public long queriedTokens() { return queriedTokens; }
    /** Tokens (either tier) found in the cache when preempted requests were readmitted, summed. */
    public long preemptedHitTokens() { return preemptedHitTokens; }
    /** Tokens looked up when preempted requests were readmitted, summed. */
    public long preemptedQueriedTokens() { return preemptedQueriedTokens; }
    /** Of {@link #hitTokens()}, those found in the CPU tier (and reloaded). */
    public long cpuHitTokens() { return cpuHitTokens; }
    /**
     * Of {@link #preemptedHitTokens()}, those found in the CPU tier (and reloaded): a preempted request's readmission
     * served from the CPU tier, kept apart as {@link #hitTokens()} keeps first admissions apart.
     */
    public long preemptedCpuHitTokens() { return preemptedCpuHitTokens; }
    /** The CPU tier, or null when there is none. */
    public KvOffload offload() { return offload; }

    /** Sets the clock offloads and reloads are timed by (the engine, at each step; no-op without a CPU tier). */
    public void setClockUs(long nowUs) {
        if (offload != null) {
            offload.setNowUs(nowUs);
        }
    }
    public long allocationFailures() { return allocationFailures; }
    /** Number of distinct block hashes currently registered (routing-visible prefix state). */
    public int cachedBlockHashes() { return radix != null ? radix.pageHashCount() : index.size(); }

    /** Blocks needed to hold {@code tokens} tokens. */
    public int blocksFor(long tokens) {
        return (int) ((tokens + blockSize - 1) / blockSize);
    }

    /**
     * Counts the leading full blocks of {@code r}'s tokens (prompt, plus output generated before a
     * preemption) present in the cache: on the GPU, then (with a CPU tier) the blocks right after
     * them found in the CPU tier ({@link #lastLookupCpuHits()}; not with {@link FailureReload}). At most {@code (numTokens - 1) /
     * blockSize} blocks count: vLLM always recomputes the last prompt token so the step produces
     * logits ({@code KVCacheManager.get_computed_blocks}; a connector's external hits are capped the
     * same way). The hits are remembered for an immediately following {@link #allocateNew}.
     */
    public int lookupPrefix(Request r) {
        lastLookup = r;
        lastLookupHits = 0;
        lastLookupCpuHits = 0;
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
        if (offload != null && failureReload == null && n < max) {
            lastLookupCpuHits = offload.lookup(r, n, max, blockSize);
        }
        return n + lastLookupCpuHits;
    }

    /** Of the last {@link #lookupPrefix}'s hits, the trailing ones found only in the CPU tier. */
    public int lastLookupCpuHits() { return lastLookupCpuHits; }

    /** When the reload of the last {@link #allocateNew} with CPU hits completes. */
    public long lastReloadEndUs() { return lastReloadEndUs; }

    /**
     * {@code r} is admitted right after its blocking reload: its hits were counted when the reload
     * was issued, so this lookup's are taken back (and the reloaded tokens stay CPU hits).
     */
    public void uncountRepeatedLookup(Request r, int cachedTokens) {
        countLookup(r, -cachedTokens, -r.numTokens());
        r.cpuHitTokens = Math.min(r.reloadedTokens, cachedTokens);
        r.reloadedTokens = 0;
    }

    /** With {@code kv_reload: step} or reloads on allocation failure: how long the step waits for them (0 without a tier). */
    public long takeReloadStallUs() {
        return offload == null ? 0 : offload.takeStallUs();
    }

    /** True if {@code hash} is a registered block hash (used by cache-aware routing). */
    public boolean containsHash(long blockHash) {
        return radix != null ? radix.holds(blockHash) : index.containsKey(blockHash);
    }

    /** Visits every registered block hash (in no particular order). */
    public void forEachHash(java.util.function.LongConsumer visitor) {
        if (radix != null) {
            radix.forEachPageHash(visitor);
        } else {
            index.forEachKey(visitor);
        }
    }

    /**
     * Admits a waiting request: reuses the {@code cachedBlocks} hits of the preceding
     * {@link #lookupPrefix} and allocates fresh blocks so that tokens {@code [0, endToken)} are
     * backed. Hits beyond the GPU ones are CPU-tier blocks: they get fresh GPU blocks and are
     * reloaded ({@link #lastReloadEndUs()}). All-or-nothing.
     */
    public boolean allocateNew(Request r, int cachedBlocks, int endToken) {
        if (lastLookup != r || cachedBlocks > lastLookupHits + lastLookupCpuHits) {
            throw new IllegalStateException("allocateNew without a matching lookupPrefix for " + r);
        }
        if (r.heldBlocks() > 0) {
            throw new IllegalStateException("request already holds blocks: " + r);
        }
        int gpuHits = Math.min(cachedBlocks, lastLookupHits);
        int cpuHits = cachedBlocks - gpuHits;
        int needNew = blocksFor(endToken) - gpuHits;
        int evictableHits = 0;
        for (int i = 0; i < gpuHits; i++) {
            if (queue.refCount(hitScratch[i]) == 0) {
                evictableHits++;
            }
        }
        if (needNew + evictableHits > queue.freeCount()) {
            allocationFailures++;
            if (failureReload != null) {
                failureReload.onAllocationFailure(r, gpuHits, evictableHits);
            }
            return false;
        }
        // Room up front for every block the request will list (hits, and the blocks it registers as
        // it runs), so registration does not regrow the list; the others stay an anonymous count.
        r.blocks.ensureCapacity(Math.max(cachedBlocks, blocksFor(r.outputReusable()
                ? (long) r.inputTokens() + r.targetOutputTokens() : Math.min(endToken, r.sharedInputTokens()))));
        if (cpuHits > 0) {
            // read the CPU copies before this allocation's evictions may offload over them
            lastReloadEndUs = offload.reload(r, gpuHits, cpuHits, blockSize);
            if (r.preemptions == 0) {
                cpuHitTokens += (long) cpuHits * blockSize;
            } else {
                preemptedCpuHitTokens += (long) cpuHits * blockSize;
            }
        }
        r.cpuHitTokens = cpuHits * blockSize;
        holdHits(gpuHits, true);
        for (int i = 0; i < gpuHits; i++) {
            r.blocks.add(hitScratch[i]);
        }
        popFree(needNew);
        r.anonymousTail = needNew;
        anonymousHeld += needNew;
        r.blockTokens = r.heldBlocks() * blockSize;
        r.registeredBlocks = gpuHits;
        countLookup(r, (long) cachedBlocks * blockSize, r.numTokens());
        lastLookup = null;
        if (cpuHits > 0) {
            // reloaded blocks are indexed whatever the registration limit: a request that frees them
            // after a blocking reload must find them again
            registerUpTo(r, cachedBlocks);
        }
        register(r, endToken);
        return true;
    }

    /** Adds an admission's hits and looked-up tokens to its request's bucket (first admission or readmission). */
    private void countLookup(Request r, long hits, long queried) {
        if (r.preemptions == 0) {
            hitTokens += hits;
            queriedTokens += queried;
        } else {
            preemptedHitTokens += hits;
            preemptedQueriedTokens += queried;
        }
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

    /**
     * {@link #ensure(Request, int)} for a speculating request: tokens {@code [0, endToken)} are backed (its draft tokens
     * and the drafter's lookahead slots among them) but only the full blocks below {@code verifiedEnd} are cached for
     * prefix reuse, as vLLM caches {@code num_computed_tokens + num_new_tokens - len(spec_token_ids)} tokens
     * ({@code vllm/v1/core/kv_cache_manager.py allocate_slots}). All-or-nothing.
     */
    public boolean ensure(Request r, int endToken, int verifiedEnd) {
        return verifiedEnd == endToken ? ensure(r, endToken) : allocate(r, endToken, verifiedEnd);
    }

    /** Extends a running request's allocation so tokens {@code [0, endToken)} are backed. All-or-nothing. */
    public boolean allocate(Request r, int endToken) {
        return allocate(r, endToken, endToken);
    }

    /** {@link #allocate(Request, int)}, caching the full blocks below {@code registerEnd} only. */
    private boolean allocate(Request r, int endToken, int registerEnd) {
        int need = blocksFor(endToken) - r.blockTokens / blockSize; // held blocks, read without the list
        if (need > queue.freeCount()) {
            allocationFailures++;
            return false;
        }
        if (need > 0) {
            popFree(need);
            r.anonymousTail += need;
            anonymousHeld += need;
            r.blockTokens += need * blockSize; // = heldBlocks() x blockSize, without reading the block list
        }
        register(r, registerEnd);
        return true;
    }

    /**
     * Reserves blocks backing tokens {@code [0, endToken)} for {@code r}, which holds none, without
     * registering their content (a P/D transfer's destination: nothing can hit them before the KV has
     * arrived; the request's first step registers them). All-or-nothing; a failure is not an
     * allocation failure of the scheduler (the transfer waits).
     */
    public boolean reserve(Request r, int endToken) {
        if (r.heldBlocks() > 0) {
            throw new IllegalStateException("request already holds blocks: " + r);
        }
        int need = blocksFor(endToken);
        if (need > queue.freeCount()) {
            return false;
        }
        r.blocks.ensureCapacity(blocksFor(r.outputReusable()
                ? (long) r.inputTokens() + r.targetOutputTokens() : Math.min(endToken, r.sharedInputTokens())));
        popFree(need);
        r.anonymousTail = need;
        anonymousHeld += need;
        r.blockTokens = need * blockSize;
        r.registeredBlocks = 0;
        return true;
    }

    /** Frees all of {@code r}'s blocks (tail first); their hashes stay reusable until evicted. */
    public void release(Request r) {
        int tail = r.anonymousTail;
        if (tail > 0) {
            queue.releaseAnonymous(tail);
            anonymousHeld -= tail;
            r.anonymousTail = 0;
        }
        for (int i = r.blocks.size() - 1; i >= 0; i--) {
            int blk = r.blocks.getInt(i);
            if (blk < 0) {
                queue.releaseAnonymous(1);
                anonymousHeld--;
            } else {
                queue.release(blk);
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
        if (full - r.registeredBlocks > 4) {
            // a long run of blocks (a prompt chunk): first touch every block's home slot, loads the CPU
            // can overlap, so the inserts below find their cache lines loaded instead of missing one
            // after another (~10% of the Mooncake benchmark's kernel time)
            long seen = 0;
            for (int b = r.registeredBlocks; b < full; b++) {
                seen += index.touch(r.blockHash(b, blockSize));
            }
            prefetchSink += seen;
        }
        for (int b = r.registeredBlocks; b < full; b++) {
            if (b == r.blocks.size()) { // the first block of the anonymous tail is listed now
                r.blocks.add(-1);
                r.anonymousTail--;
            }
            if (r.blocks.getInt(b) >= 0) {
                continue; // a prefix hit: already hashed
            }
            long h = r.blockHash(b, blockSize);
            int blk = freeIds[freeIdCount - 1];
            if (index.putIfAbsent(h, blk) < 0) {
                freeIdCount--;
                hash[blk] = h;
                queue.firstReference(blk);
                r.blocks.set(b, blk);
                anonymousHeld--;
                if (listener != null) {
                    listener.stored(h);
                }
            }
        }
        if (full > r.registeredBlocks) {
            r.registeredBlocks = full;
        }
    }

    /**
     * Takes {@code blocks} blocks off the head of the free queue for a new owner: anonymous runs a
     * whole run at a time; a hashed block has its hash evicted (its id is released; the block is
     * anonymous now), and offloaded to the CPU tier if there is one.
     */
    private void popFree(int blocks) {
        while (blocks > 0) {
            int took = queue.takeAnonymousAtHead(blocks);
            if (took > 0) {
                blocks -= took;
                continue;
            }
            int usedBefore = totalBlocks - queue.freeCount();
            int head = queue.takeHashedHead();
            if (index.remove(hash[head], head) >= 0) {
                if (offload != null) {
                    offload.onGpuEviction(hash[head], usedBefore);
                }
                if (listener != null) {
                    listener.removed(hash[head]);
                }
            }
            freeIds[freeIdCount++] = head;
            blocks--;
        }
    }

    /** Holds the last lookup's {@code gpuHits} GPU hits out of the free queue, or frees them (tail first) again. */
    void holdHits(int gpuHits, boolean hold) {
        for (int k = 0; k < gpuHits; k++) {
            int blk = hitScratch[hold ? k : gpuHits - 1 - k];
            if (hold) {
                queue.hold(blk);
            } else {
                queue.release(blk);
            }
        }
    }

    /**
     * Fills the block at the head of the free queue with the content of {@code blockHash}, reloaded
     * from the CPU tier, and puts it back at the tail unreferenced and hit-able ({@link FailureReload}).
     */
    void cacheFree(long blockHash) {
        popFree(1);
        int blk = freeIds[--freeIdCount];
        index.put(blockHash, blk);
        hash[blk] = blockHash; // an id off freeIds has count 0
        queue.enqueueUnreferenced(blk);
        if (listener != null) {
            listener.stored(blockHash);
        }
    }

    /**
     * INV-4: every block is either referenced or in the free queue, never both, and the free queue
     * holds exactly {@code freeBlocks()} blocks; the index names exactly the hashed blocks. O(total
     * blocks): debug mode only.
     */
    public void checkInvariants() {
        int listed = queue.checkedListedBlocks();
        long referencedHashed = 0;
        for (int b = 0; b < totalBlocks; b++) {
            if (queue.refCount(b) > 0) {
                referencedHashed++;
            }
        }
        if (index.size() + freeIdCount != totalBlocks) {
            throw new IllegalStateException("INV-4: " + index.size() + " hashed blocks + " + freeIdCount
                    + " free ids != total " + totalBlocks);
        }
        int freeCount = queue.freeCount();
        if (listed != freeCount || referencedHashed + anonymousHeld + listed != totalBlocks) {
            throw new IllegalStateException("INV-4: referenced " + referencedHashed + " hashed + " + anonymousHeld
                    + " anonymous + free " + listed + " != total " + totalBlocks + " (freeCount " + freeCount + ")");
        }
        if (offload != null) {
            offload.checkInvariants();
        }
    }
}
