package io.servesim.engine;

/**
 * BLIS's reload on allocation failure ({@code engine.kv_reload_on_allocation_failure: true}; BLIS core engine
 * docs, "Tiered Cache (GPU + CPU)": "Reload: On GPU allocation failure, blocks are reloaded from CPU with a
 * transfer latency penalty": inference-sim/inference-sim @ ce85515e, {@code docs/concepts/core-engine.md}):
 * the prefix lookup of an admission sees the GPU cache only, and the CPU tier is consulted
 * when a new request's GPU allocation fails, as BLIS's tiered cache did (inference-sim/inference-sim
 * {@code sim/kv/tiered.go} {@code AllocateKVBlocks} / {@code reloadPrefixFromCPU} at commits 546ab023
 * and 1b36672f: "GPU allocation failed — try targeted CPU reload for this request's prefix", the
 * transfer latency accumulated and added to the step; BLIS later consults the tiers at every admission
 * (inference-sim/inference-sim pull request 1586), which is this simulator's default and what vLLM's
 * {@code OffloadingConnector} does):
 * <ul>
 *   <li>the request's prompt blocks right after its GPU hits (up to the lookup's cap) that the CPU
 *       tier holds are reloaded, blocks already on the GPU skipped, at most as many as there are
 *       free GPU blocks (each reload takes a distinct one);</li>
 *   <li>each reloaded block takes the block at the head of the GPU free queue (evicting its content,
 *       which may be offloaded) and goes back to the tail unreferenced and hit-able
 *       ({@link KvCache#cacheFree}). The request's own unreferenced GPU hits are held meanwhile (and
 *       freed again, as a release would), so the reload never evicts the prefix it extends; BLIS
 *       pops them too, and would reload them again on its next failure;</li>
 *   <li>the blocks move as one transfer on the instance's link ({@link KvOffload#transferReload},
 *       serialized with the others; BLIS adds {@code base + ceil(block / bandwidth)} per
 *       block instead), and the step that issued it waits for it ("added to step time").</li>
 * </ul>
 * BLIS then retries the allocation at once. Here it would fail again: the accounting is
 * exact (the reloaded blocks are free blocks the request's own allocation must take), where
 * BLIS's pre-check counts only the new blocks against the free list. The request stays at the
 * head of the queue and its next admission hits the reloaded blocks on the GPU (counted as GPU hits,
 * as BLIS's GPU cache counts them), instead of recomputing them.
 */
final class FailureReload {
    private final KvCache kv;
    private final KvOffload offload;
    /** Hashes of the blocks being reloaded (at most the free GPU blocks). */
    private final long[] hashes;

    FailureReload(KvCache kv, KvOffload offload) {
        this.kv = kv;
        this.offload = offload;
        this.hashes = new long[kv.totalBlocks()];
    }

    /**
     * {@code r}'s allocation failed with {@code gpuHits} GPU hits of the last lookup, {@code evictableHits}
     * of them unreferenced: reloads what follows them from the CPU tier into the other free blocks.
     */
    void onAllocationFailure(Request r, int gpuHits, int evictableHits) {
        int blockSize = kv.blockSize();
        int max = (r.numTokens() - 1) / blockSize;
        int room = kv.freeBlocks() - evictableHits;
        int n = 0;
        for (int b = gpuHits; b < max && n < room; b++) {
            long h = r.blockHash(b, blockSize);
            if (kv.containsHash(h)) {
                continue;
            }
            // read every copy before the pops below evict GPU blocks whose offload could drop one
            if (!offload.readForReload(h)) {
                break;
            }
            hashes[n++] = h;
        }
        if (n == 0) {
            return;
        }
        offload.transferReload(n);
        kv.holdHits(gpuHits, true);
        for (int k = 0; k < n; k++) {
            kv.cacheFree(hashes[k]);
        }
        kv.holdHits(gpuHits, false);
    }
}
