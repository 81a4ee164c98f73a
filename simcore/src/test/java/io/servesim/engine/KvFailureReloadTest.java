package io.servesim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@code kv_reload_on_allocation_failure}: BLIS's reload when a GPU allocation fails (BLIS core engine docs,
 * "Tiered Cache (GPU + CPU)": inference-sim/inference-sim @ ce85515e, {@code docs/concepts/core-engine.md}).
 */
class KvFailureReloadTest {
    /** Llama-3.1-8B, block 16, TP 1 (see {@code KvOffloadTest}). */
    private static final long BLOCK_BYTES = 2_097_152;

    private static Request req(long id, TokenSequence prompt) {
        return new Request(id, RequestTags.DEFAULT, prompt, 4, 0, 0, 0, true);
    }

    /**
     * 6 GPU blocks of 16, a CPU tier of 8, threshold 0 (every eviction offloads), 64 GB/s, no base
     * latency: one block takes ceil(2,097,152 / 64e3) = 33 us, two in one transfer ceil(65.536) = 66 us.
     * Leaves the 32-token prefix P (blocks P0, P1) in the CPU tier only, offloaded at t=500 (link busy
     * 500 -> 566), and 2 GPU blocks free (E holds 4).
     */
    private record Setup(KvCache kv, Request holder) {
    }

    private static Setup prefixInCpuTwoBlocksFree(boolean onFailure) {
        KvTierConfig tier = new KvTierConfig(8, 0.0, 64, 0, KvTierConfig.Reload.STEP, BLOCK_BYTES, onFailure);
        KvCache kv = new KvCache(6, 16, true, tier);
        kv.setClockUs(0);
        // A: P + 8 own tokens, 3 blocks; freed tail first: queue [anonymous x4, P1, P0].
        Request a = req(0, TokenSequence.prefixed(77, 32, 1, 8));
        assertTrue(kv.allocateNew(a, kv.lookupPrefix(a), 40));
        kv.release(a);
        // t=500: C (96 unique tokens) takes all 6 blocks, evicting P1 and P0 (both offloaded), and leaves.
        kv.setClockUs(500);
        Request c = req(1, TokenSequence.unique(2, 96));
        assertTrue(kv.allocateNew(c, kv.lookupPrefix(c), 96));
        kv.release(c);
        assertEquals(2, kv.offload().offloadedBlocks());
        Request e = req(2, TokenSequence.unique(3, 64));
        assertTrue(kv.allocateNew(e, kv.lookupPrefix(e), 64));
        assertEquals(2, kv.freeBlocks());
        return new Setup(kv, e);
    }

    @Test
    void failedAllocationReloadsThePrefixIntoFreeBlocks() {
        Setup setup = prefixInCpuTwoBlocksFree(true);
        KvCache kv = setup.kv();
        KvOffload cpu = kv.offload();
        // t=2000: D = P + 8 own tokens (3 blocks). The lookup sees the GPU only: 0 hits (the CPU tier
        // holds 2). 3 blocks needed > 2 free: the allocation fails, and P0, P1 (at most (40 - 1) / 16
        // = 2 blocks, and 2 free) are reloaded into the 2 free blocks as one transfer: the link is free
        // since 566, so 2000 -> 2066, and the step waits 66 us. 1500 us after the offload: no thrashing.
        kv.setClockUs(2000);
        Request d = req(3, TokenSequence.prefixed(77, 32, 4, 8));
        assertEquals(0, kv.lookupPrefix(d));
        assertFalse(kv.allocateNew(d, 0, 40));
        assertEquals(2, cpu.reloadedBlocks());
        assertEquals(1, cpu.reloads());
        assertEquals(0, cpu.thrashedBlocks());
        assertEquals(66, kv.takeReloadStallUs());
        // bytes on the link: 2 offloads + 2 reloads = 4 x 2,097,152; busy 33 + 33 + 66 us.
        assertEquals(4 * BLOCK_BYTES, cpu.transferBytes());
        assertEquals(132, cpu.transferUs());
        assertEquals(2, kv.freeBlocks());
        kv.checkInvariants();
        // The retry fails too (exact accounting: 1 new block + 2 unreferenced hits > 2 free) and
        // reloads nothing more: P is on the GPU now.
        kv.setClockUs(3000);
        assertEquals(2, kv.lookupPrefix(d));
        assertFalse(kv.allocateNew(d, 2, 40));
        assertEquals(2, cpu.reloadedBlocks());
        assertEquals(0, kv.takeReloadStallUs());
        // Once E leaves, D hits P on the GPU instead of recomputing it: 32 hit tokens, none from the CPU.
        kv.release(setup.holder());
        long hitsBefore = kv.hitTokens();
        assertEquals(2, kv.lookupPrefix(d));
        assertTrue(kv.allocateNew(d, 2, 40));
        assertEquals(32, kv.hitTokens() - hitsBefore);
        assertEquals(0, d.cpuHitTokens());
        assertEquals(0, kv.cpuHitTokens());
        kv.checkInvariants();
    }

    @Test
    void offByDefaultTheTierIsConsultedAtAdmissionAndNotOnFailure() {
        // The same state with the option off (today's behaviour): the lookup continues into the CPU
        // tier (2 hits), the allocation needs 3 fresh blocks > 2 free and fails, and nothing moves.
        KvCache kv = prefixInCpuTwoBlocksFree(false).kv();
        kv.setClockUs(2000);
        Request d = req(3, TokenSequence.prefixed(77, 32, 4, 8));
        assertEquals(2, kv.lookupPrefix(d));
        assertEquals(2, kv.lastLookupCpuHits());
        assertFalse(kv.allocateNew(d, 2, 40));
        assertEquals(0, kv.offload().reloadedBlocks());
        assertEquals(0, kv.takeReloadStallUs());
    }

    @Test
    void theReloadKeepsTheRequestsOwnGpuHits() {
        // 6 GPU blocks, the same tier. A = 48-token prefix P (P0, P1, P2) + 8 own tokens, 4 blocks;
        // freed tail first: queue [anonymous x3, P2, P1, P0].
        KvCache kv = new KvCache(6, 16, true, new KvTierConfig(8, 0.0, 64, 0, KvTierConfig.Reload.STEP, BLOCK_BYTES, true));
        kv.setClockUs(0);
        Request a = req(0, TokenSequence.prefixed(77, 48, 1, 8));
        assertTrue(kv.allocateNew(a, kv.lookupPrefix(a), 56));
        kv.release(a);
        // C1 (3 blocks) takes the anonymous ones; C2 (2 blocks) evicts P2 and P1 (offloaded) and
        // leaves: queue [P0, anonymous x2], 3 free, P0 at the head.
        Request c1 = req(1, TokenSequence.unique(2, 48));
        assertTrue(kv.allocateNew(c1, kv.lookupPrefix(c1), 48));
        Request c2 = req(2, TokenSequence.unique(3, 32));
        assertTrue(kv.allocateNew(c2, kv.lookupPrefix(c2), 32));
        kv.release(c2);
        assertEquals(2, kv.offload().offloadedBlocks());
        // D = P + 8 own tokens (4 blocks): 1 GPU hit (P0, unreferenced); 3 new + 1 hit > 3 free: fails.
        // Room for 3 - 1 = 2 reloads, P1 and P2, popped from the two anonymous blocks: P0, at the head,
        // is held meanwhile, not evicted. D's next lookup hits P0, P1, P2 on the GPU: 3 = (56 - 1) / 16.
        kv.setClockUs(5000);
        Request d = req(3, TokenSequence.prefixed(77, 48, 4, 8));
        assertEquals(1, kv.lookupPrefix(d));
        assertFalse(kv.allocateNew(d, 1, 56));
        assertEquals(2, kv.offload().reloadedBlocks());
        assertEquals(2, kv.offload().offloadedBlocks(), "P0 was not evicted (and offloaded)");
        assertEquals(3, kv.freeBlocks());
        assertEquals(3, kv.lookupPrefix(d));
        kv.checkInvariants();
    }
}
