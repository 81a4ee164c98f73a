package io.servesim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class KvCacheTest {
    private static Request req(long id, TokenSequence prompt) {
        return new Request(id, RequestTags.DEFAULT, prompt, 4, 0, 0, 0, true);
    }

    @Test
    void allocationIsAllOrNothing() {
        // 4 blocks of 16. A takes 3 blocks (40 tokens); B asks for 2 blocks (20 tokens): only 1 free,
        // so B fails and nothing changes (still 1 free, B holds nothing).
        KvCache kv = new KvCache(4, 16, true);
        Request a = req(0, TokenSequence.unique(1, 40));
        Request b = req(1, TokenSequence.unique(2, 20));
        assertTrue(kv.allocateNew(a, kv.lookupPrefix(a), 40));
        assertEquals(3, kv.usedBlocks());
        assertFalse(kv.allocateNew(b, kv.lookupPrefix(b), 20));
        assertEquals(1, kv.freeBlocks());
        assertEquals(0, b.heldBlocks());
        assertEquals(1, kv.allocationFailures());
        kv.checkInvariants();
    }

    @Test
    void freedBlocksStayHitableUntilReused() {
        // A (prefix P of 32 tokens + 8 unique) completes; its 2 full prefix blocks stay cached.
        // B with the same prefix hits 2 blocks (32 tokens). Then C, unrelated and big enough to need
        // every free block, evicts them; D with the prefix P then hits nothing.
        KvCache kv = new KvCache(4, 16, true);
        Request a = req(0, TokenSequence.prefixed(77, 32, 1, 8));
        assertTrue(kv.allocateNew(a, kv.lookupPrefix(a), 40));
        kv.release(a);
        assertEquals(4, kv.freeBlocks());
        Request b = req(1, TokenSequence.prefixed(77, 32, 2, 8));
        assertEquals(2, kv.lookupPrefix(b));
        assertTrue(kv.allocateNew(b, 2, 40));
        assertEquals(3, kv.usedBlocks());
        kv.release(b);
        Request c = req(2, TokenSequence.unique(3, 64));
        assertEquals(0, kv.lookupPrefix(c));
        assertTrue(kv.allocateNew(c, 0, 64));
        kv.release(c);
        Request d = req(3, TokenSequence.prefixed(77, 32, 4, 8));
        assertEquals(0, kv.lookupPrefix(d));
        kv.checkInvariants();
    }

    @Test
    void sharedBlocksAreReferenceCounted() {
        // Two running requests share 2 prefix blocks: 2 shared + 1 own each = 4 used of 8.
        // Releasing one keeps the shared blocks in use.
        KvCache kv = new KvCache(8, 16, true);
        Request a = req(0, TokenSequence.prefixed(5, 32, 1, 10));
        Request b = req(1, TokenSequence.prefixed(5, 32, 2, 10));
        assertTrue(kv.allocateNew(a, kv.lookupPrefix(a), 42));
        assertEquals(2, kv.lookupPrefix(b));
        assertTrue(kv.allocateNew(b, 2, 42));
        assertEquals(4, kv.usedBlocks());
        kv.release(a);
        assertEquals(3, kv.usedBlocks());
        kv.release(b);
        assertEquals(0, kv.usedBlocks());
        kv.checkInvariants();
    }

    @Test
    void lookupNeverCoversTheLastToken() {
        // A 32-token prompt fully cached can reuse only (32 - 1) / 16 = 1 block: vLLM recomputes the last token.
        KvCache kv = new KvCache(8, 16, true);
        Request a = req(0, TokenSequence.ofSegments(new long[] {9}, new int[] {32}));
        assertTrue(kv.allocateNew(a, kv.lookupPrefix(a), 32));
        kv.release(a);
        Request b = req(1, TokenSequence.ofSegments(new long[] {9}, new int[] {32}));
        assertEquals(1, kv.lookupPrefix(b));
        assertEquals(0, kv.hitTokens()); // hits are counted at admission, not at lookup
    }

    @Test
    void chainedHashesDependOnThePrefix() {
        // Same second block content after different first blocks must not hit (chained hash).
        KvCache kv = new KvCache(8, 16, true);
        Request a = req(0, TokenSequence.ofSegments(new long[] {1, 2}, new int[] {16, 17}));
        assertTrue(kv.allocateNew(a, kv.lookupPrefix(a), 33));
        Request b = req(1, TokenSequence.ofSegments(new long[] {3, 2}, new int[] {16, 17}));
        assertEquals(0, kv.lookupPrefix(b));
    }

    @Test
    void uniqueContentIsNotIndexedButStillCachedAndEvictable() {
        // A unique 64-token prompt: nothing to index (no other request can contain it). Its blocks are
        // still allocated and freed like any others; preempting it indexes the 4 computed full blocks
        // so its own recomputation hits (64 - 1) / 16 = 3 of them.
        KvCache kv = new KvCache(8, 16, true);
        Request a = req(0, TokenSequence.unique(5, 64));
        assertTrue(kv.allocateNew(a, kv.lookupPrefix(a), 64));
        assertEquals(0, kv.cachedBlockHashes());
        assertEquals(4, kv.usedBlocks());
        kv.releasePreempted(a, 64);
        assertEquals(4, kv.cachedBlockHashes());
        assertEquals(3, kv.lookupPrefix(a));
        kv.checkInvariants();
    }

    @Test
    void anonymousBlocksKeepTheirPlaceInTheEvictionOrder() {
        // 6 blocks of 16. A = shared prefix P (32 tokens, 2 indexed blocks P0 P1) + 16 unique tokens
        // (1 anonymous block U). The 3 untouched blocks stay free. Releasing A frees tail first (vLLM):
        // the free queue is [3 free, U, P1, P0]. B (4 unique blocks) takes the 3 free and U, so both
        // prefix blocks survive: D (P + 8 tokens) hits (40 - 1) / 16 = 2. C (1 block) then takes P1,
        // the least recently freed, and D hits only P0, the one free block left.
        KvCache kv = new KvCache(6, 16, true);
        Request a = req(0, TokenSequence.prefixed(77, 32, 1, 16));
        assertTrue(kv.allocateNew(a, kv.lookupPrefix(a), 48));
        assertEquals(2, kv.cachedBlockHashes());
        kv.release(a);
        kv.checkInvariants();
        Request b = req(1, TokenSequence.unique(2, 64));
        assertTrue(kv.allocateNew(b, kv.lookupPrefix(b), 64));
        Request d = req(3, TokenSequence.prefixed(77, 32, 4, 8));
        assertEquals(2, kv.lookupPrefix(d));
        Request c = req(2, TokenSequence.unique(3, 16));
        assertTrue(kv.allocateNew(c, kv.lookupPrefix(c), 16));
        assertEquals(1, kv.cachedBlockHashes());
        assertEquals(1, kv.lookupPrefix(d));
        assertEquals(1, kv.freeBlocks()); // P0, still hit-able
        kv.checkInvariants();
    }
}
