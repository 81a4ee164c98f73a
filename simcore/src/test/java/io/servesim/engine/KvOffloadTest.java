package io.servesim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.latency.ModelCatalog;
import org.junit.jupiter.api.Test;

/** The CPU tier under the GPU cache: transfer times, offload on eviction, reload on a hit, thrashing. */
class KvOffloadTest {
    /** Llama-3.1-8B, block 16, TP 1: 16 tokens x 131,072 B (see {@link #transferTimeOfLlama8bBlocksOverPcieGen5}). */
    private static final long LLAMA_8B_BLOCK_BYTES = 2_097_152;

    private static Request req(long id, TokenSequence prompt) {
        return new Request(id, RequestTags.DEFAULT, prompt, 4, 0, 0, 0, true);
    }

    private static KvTierConfig tier(int cpuBlocks, double threshold, double gbPerS, long baseUs) {
        return new KvTierConfig(cpuBlocks, threshold, gbPerS, baseUs, KvTierConfig.Reload.STEP, LLAMA_8B_BLOCK_BYTES);
    }

    @Test
    void transferTimeOfLlama8bBlocksOverPcieGen5() {
        // Llama-3.1-8B: 32 layers x 8 KV heads x head dim 128 x (K and V) x 2 bytes (bf16) = 131,072 B
        // per token on one GPU (TP 1); a 16-token block is 2,097,152 B. H100's host link is PCIe Gen5
        // x16, 64 GB/s: 10 blocks = 20,971,520 B / 64e9 B/s = 327.68 us -> 328 us, + 10 us base = 338 us.
        long perToken = ModelCatalog.builtIn().lookup("meta-llama/llama-3.1-8b-instruct", "model").kvBytesPerTokenPerGpu(1);
        assertEquals(131_072, perToken);
        KvTierConfig h100 = KvTierConfig.OFF.resolved(64, 16 * perToken);
        assertEquals(LLAMA_8B_BLOCK_BYTES, h100.bytesPerBlock());
        KvTierConfig withBase = new KvTierConfig(1000, 0.9, 64, 10, KvTierConfig.Reload.BLOCKING, 16 * perToken);
        assertEquals(338, withBase.transferUs(10));
        // The same 10 blocks over a 1 GB/s link: 20,971,520 us / 1e3 = 20,971.52 -> 20,972 us (+ 10).
        assertEquals(20_982, tier(1000, 0.9, 1, 10).transferUs(10));
    }

    @Test
    void evictedPrefixIsOffloadedReloadedAndThrashingCounted() {
        // GPU: 4 blocks of 16; CPU tier: 8 blocks; threshold 0 (every eviction offloads); 64 GB/s, no
        // base latency, so one block takes ceil(2,097,152 / 64e3) = 33 us and two 66 us.
        KvCache kv = new KvCache(4, 16, true, tier(8, 0.0, 64, 0));
        KvOffload cpu = kv.offload();
        // t=0: A = 32-token shared prefix P (blocks P0, P1, registered) + 8 own tokens; it leaves.
        // Free queue: [anonymous x2, P1, P0] (a request frees tail first).
        kv.setClockUs(0);
        Request a = req(0, TokenSequence.prefixed(77, 32, 1, 8));
        assertTrue(kv.allocateNew(a, kv.lookupPrefix(a), 40));
        kv.release(a);
        // t=500: C (64 unrelated tokens) takes all 4 blocks: the 2 anonymous ones, then evicts P1 and P0,
        // each copied to the CPU tier: 2 offloads, link busy 500 -> 566.
        kv.setClockUs(500);
        Request c = req(1, TokenSequence.unique(2, 64));
        assertTrue(kv.allocateNew(c, kv.lookupPrefix(c), 64));
        assertEquals(2, cpu.offloadedBlocks());
        assertEquals(2, cpu.cpuResidentBlocks());
        kv.release(c);
        kv.checkInvariants();
        // t=1200: D with prefix P: no GPU hit, 2 CPU hits (at most (40 - 1) / 16 = 2 blocks count).
        // Reloaded 700 us after they were offloaded: < 1 ms, so both are thrashing. The reload (66 us)
        // starts at once (link free since 566): the step waits 66 us.
        kv.setClockUs(1200);
        Request d = req(2, TokenSequence.prefixed(77, 32, 3, 8));
        assertEquals(2, kv.lookupPrefix(d));
        assertEquals(2, kv.lastLookupCpuHits());
        assertTrue(kv.allocateNew(d, 2, 40));
        assertEquals(1266, kv.lastReloadEndUs());
        assertEquals(66, kv.takeReloadStallUs());
        assertEquals(0, kv.takeReloadStallUs());
        assertEquals(32, d.cpuHitTokens());
        assertEquals(2, cpu.thrashedBlocks());
        kv.release(d);
        // D registered P0, P1 again on the GPU. t=5000: E (64 tokens) evicts them again, but their CPU
        // copies are still resident (inclusive tier): no new offload, no transfer.
        kv.setClockUs(5000);
        Request e = req(3, TokenSequence.unique(4, 64));
        assertTrue(kv.allocateNew(e, kv.lookupPrefix(e), 64));
        assertEquals(2, cpu.offloadedBlocks());
        kv.release(e);
        // t=7000: F with prefix P reloads both again, 6.5 ms after the copies were written: not thrashing.
        kv.setClockUs(7000);
        Request f = req(4, TokenSequence.prefixed(77, 32, 5, 8));
        assertEquals(2, kv.lookupPrefix(f));
        assertTrue(kv.allocateNew(f, 2, 40));
        kv.checkInvariants();
        assertEquals(4, cpu.reloadedBlocks());
        assertEquals(2, cpu.thrashedBlocks());
        // 2 offloaded + 4 reloaded blocks of 2,097,152 B; 33 + 33 + 66 + 66 us on the link.
        assertEquals(6 * LLAMA_8B_BLOCK_BYTES, cpu.transferBytes());
        assertEquals(198, cpu.transferUs());
        assertEquals(64, kv.cpuHitTokens());
        assertEquals(64, kv.hitTokens()); // D and F, both from the CPU tier; A, C and E hit nothing
    }

    @Test
    void offloadOnlyAboveTheThresholdAndLruWithinTheTier() {
        // GPU 4 blocks, threshold 0.5: an eviction offloads only while more than floor(0.5 x 4) = 2
        // blocks are in use. CPU tier of 1 block: a second offload evicts the first copy (LRU).
        KvCache kv = new KvCache(4, 16, true, tier(1, 0.5, 64, 0));
        Request a = req(0, TokenSequence.prefixed(77, 32, 1, 8));
        assertTrue(kv.allocateNew(a, kv.lookupPrefix(a), 40));
        kv.release(a);
        // Queue [anon x2, P1, P0]. C takes 4: pops 2 anonymous (used 0 -> 2), evicts P1 with 2 in use
        // (not above 2: dropped), then P0 with 3 in use (offloaded).
        Request c = req(1, TokenSequence.unique(2, 64));
        assertTrue(kv.allocateNew(c, kv.lookupPrefix(c), 64));
        assertEquals(1, kv.offload().offloadedBlocks());
        assertEquals(1, kv.offload().cpuResidentBlocks());
        kv.release(c);
        // P0 is in the CPU tier, P1 is lost: a request with prefix P hits P0 only (1 CPU block).
        Request d = req(2, TokenSequence.prefixed(77, 32, 3, 8));
        assertEquals(1, kv.lookupPrefix(d));
        assertEquals(1, kv.lastLookupCpuHits());
        kv.checkInvariants();
    }

    @Test
    void withoutATierNothingIsOffloaded() {
        KvCache kv = new KvCache(4, 16, true);
        assertNull(kv.offload());
        assertEquals(0, kv.takeReloadStallUs());
    }
}
