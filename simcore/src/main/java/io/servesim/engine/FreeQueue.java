package io.servesim.engine;

/**
 * The free-block queue of a {@link KvCache}: vLLM v1's {@code FreeKVCacheBlockQueue}
 * ({@code vllm/v1/core/kv_cache_utils.py}), a doubly linked LRU list whose head is evicted first and
 * whose tail receives freed blocks. Hashed blocks are nodes of their own (ids {@code [0, totalBlocks)};
 * their node's count is the block's reference count, 0 while queued); anonymous blocks, which nobody
 * can hit and are interchangeable, are runs (one node counting consecutive anonymous blocks, ids above
 * the sentinel {@code totalBlocks}). The queue thus holds exactly vLLM's sequence of free blocks while
 * taking and returning the bulk of blocks is a count update. Nodes are {@value #STRIDE} ints in one
 * array (links and a count, padded so a node touches one cache line); nothing is allocated per call.
 */
final class FreeQueue {
    static final int STRIDE = KvCacheFootprint.NODE_INTS;
    private static final int PREV = 0;
    private static final int NEXT = 1;
    private static final int COUNT = 2;

    private final int[] meta;
    private final int sentinel;
    /** Run node ids not in the queue. */
    private final int[] freeRuns;
    private int freeRunCount;
    /**
     * The free count lives in {@code counts[countSlot]}: a one-element array of its own, or the slot of
     * a routing board where the control plane reads every instance's count contiguously
     * ({@link #publishCountTo}).
     */
    private int[] counts = new int[1];
    private int countSlot;

    /** A queue of {@code totalBlocks} anonymous free blocks. */
    FreeQueue(int totalBlocks) {
        // a run needs a hashed block (or the sentinel) before it, so at most totalBlocks + 1 runs
        this.meta = new int[(2 * totalBlocks + 2) * STRIDE];
        this.sentinel = totalBlocks;
        this.freeRuns = new int[totalBlocks + 1];
        for (int k = 0; k <= totalBlocks; k++) {
            freeRuns[k] = 2 * totalBlocks + 1 - k;
        }
        this.freeRunCount = totalBlocks + 1;
        meta[sentinel * STRIDE + PREV] = sentinel;
        meta[sentinel * STRIDE + NEXT] = sentinel;
        releaseAnonymous(totalBlocks);
    }

    /** Blocks in the queue. */
    int freeCount() {
        return counts[countSlot];
    }

    /** From now on the free count is kept in {@code board[slot]} (once per queue). */
    void publishCountTo(int[] board, int slot) {
        if (counts.length != 1) {
            throw new IllegalStateException("free count already published to a board");
        }
        board[slot] = counts[countSlot];
        counts = board;
        countSlot = slot;
    }

    /** Reference count of hashed block {@code blk} (0: it is in the queue). */
    int refCount(int blk) {
        return meta[blk * STRIDE + COUNT];
    }

    /** Hashed block {@code blk}, just named from a block off the queue, has its first reference. */
    void firstReference(int blk) {
        meta[blk * STRIDE + COUNT] = 1;
    }

    /** One more reference to hashed block {@code blk}; a queued one (count 0) leaves the queue. */
    void hold(int blk) {
        if (meta[blk * STRIDE + COUNT]++ == 0) {
            unlink(blk);
            counts[countSlot]--;
        }
    }

    /** One reference less to hashed block {@code blk}; at 0 it joins the tail. */
    void release(int blk) {
        int count = --meta[blk * STRIDE + COUNT];
        if (count == 0) {
            linkTail(blk);
            counts[countSlot]++;
        } else if (count < 0) {
            throw new IllegalStateException("block " + blk + " freed twice");
        }
    }

    /** Appends {@code blocks} anonymous blocks at the tail (extending the tail run, or starting one). */
    void releaseAnonymous(int blocks) {
        counts[countSlot] += blocks;
        int last = meta[sentinel * STRIDE + PREV];
        if (last > sentinel) {
            meta[last * STRIDE + COUNT] += blocks;
            return;
        }
        int run = freeRuns[--freeRunCount];
        meta[run * STRIDE + COUNT] = blocks;
        linkTail(run);
    }

    /** Hashed block {@code blk} (reference count 0) joins the tail. */
    void enqueueUnreferenced(int blk) {
        linkTail(blk);
        counts[countSlot]++;
    }

    /**
     * Takes up to {@code blocks} anonymous blocks from a run at the head and returns how many; 0 when
     * the head is a hashed block ({@link #takeHashedHead}).
     */
    int takeAnonymousAtHead(int blocks) {
        int head = meta[sentinel * STRIDE + NEXT];
        if (head == sentinel) {
            throw new IllegalStateException("free list empty with freeCount=" + freeCount());
        }
        if (head < sentinel) {
            return 0;
        }
        int take = Math.min(blocks, meta[head * STRIDE + COUNT]);
        counts[countSlot] -= take;
        if ((meta[head * STRIDE + COUNT] -= take) == 0) {
            unlink(head);
            freeRuns[freeRunCount++] = head;
        }
        return take;
    }

    /** Takes the hashed block at the head (the caller checked with {@link #takeAnonymousAtHead}) and returns it. */
    int takeHashedHead() {
        int head = meta[sentinel * STRIDE + NEXT];
        unlink(head);
        counts[countSlot]--;
        return head;
    }

    /** Walks the queue (debug mode): every node's count fits its kind; returns the blocks listed. */
    int checkedListedBlocks() {
        int listed = 0;
        for (int n = meta[sentinel * STRIDE + NEXT]; n != sentinel; n = meta[n * STRIDE + NEXT]) {
            int count = meta[n * STRIDE + COUNT];
            if (n > sentinel ? count <= 0 : count != 0) {
                throw new IllegalStateException("INV-4: free-queue node " + n + " with count " + count);
            }
            listed += n > sentinel ? count : 1;
        }
        return listed;
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
}
