package io.servesim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The radix tree's match, insert, lock and LRU leaf eviction on hand-built cases (page size 4). */
class RadixCacheTest {
    private final KvCache pool = new KvCache(20, 4, false);
    private final RadixCache radix = new RadixCache(pool, true);
    private final List<Long> removed = new ArrayList<>();

    RadixCacheTest() {
        pool.setListener(new KvBlockListener() {
            @Override
            public void stored(long hash) {
            }

            @Override
            public void removed(long hash) {
                removed.add(hash);
            }
        });
    }

    /** Runs {@code r} (prompt only, its KV computed) through admission and finish: its pages end in the tree, unlocked. */
    private void finish(Request r) {
        int pages = radix.match(r, radix.maxPrefixPages(r));
        radix.lockMatch(r, pages);
        assertTrue(radix.allocateOwn(r, r.numTokens()));
        r.computedTokens = r.numTokens();
        radix.cacheFinished(r);
        radix.checkInvariants();
    }

    private static Request prompt(long id, long prefix) {
        // 8 shared tokens (2 pages) of content `prefix`, then 4 of its own (1 page nobody can match)
        return SglangHarness.request(id, TokenSequence.prefixed(prefix, 8, 900 + id, 4), 1);
    }

    @Test
    void evictsTheLeastRecentlyUsedLeafWholeAndItsParentWhenChildless() {
        Request a = prompt(1, 11);
        Request b = prompt(2, 22);
        finish(a); // nodes: A's 2 keyed pages, under them A's unique page
        finish(b); // then B's
        assertEquals(6, radix.evictablePages());
        assertEquals(20, pool.freeBlocks(), "evictable pages are free in the pool");
        assertEquals(14, radix.availablePages());
        // a later request with A's prefix touches A's keyed node (not its unique leaf)
        Request c = prompt(3, 11);
        assertEquals(2, radix.match(c, radix.maxPrefixPages(c)));
        // leaves by last access: A's unique (2nd created), B's unique (4th); A's keyed was touched last
        assertEquals(1, radix.evict(1)); // A's unique page
        assertEquals(1, radix.evict(1)); // B's unique page: A's keyed node, now a leaf, was used more recently
        assertEquals(2, radix.evict(1)); // B's keyed node, whole (2 pages)
        assertTrue(radix.holds(a.blockHash(0, 4)));
        assertFalse(radix.holds(b.blockHash(0, 4)));
        assertEquals(List.of(b.blockHash(0, 4), b.blockHash(1, 4)), removed);
        assertEquals(2, radix.evict(5)); // A's keyed node; nothing is left
        assertEquals(0, radix.evictablePages());
        assertEquals(20, radix.availablePages());
        radix.checkInvariants();
    }

    @Test
    void aLockedPathIsNotEvictedAndAMatchEndingInsideANodeSplitsIt() {
        Request a = prompt(1, 11);
        finish(a);
        // d shares A's first page only: the match splits A's keyed node after 1 page
        Request d = SglangHarness.request(4, TokenSequence.prefixed(11, 4, 904, 8), 1);
        assertEquals(1, radix.match(d, radix.maxPrefixPages(d)));
        radix.lockMatch(d, 1);
        radix.checkInvariants();
        assertEquals(1, radix.protectedPages());
        assertEquals(2, radix.evict(20)); // A's unique page, then A's second keyed page; the locked first page stays
        assertTrue(radix.holds(a.blockHash(0, 4)));
        assertFalse(radix.holds(a.blockHash(1, 4)));
        radix.abandon(d);
        assertEquals(1, radix.evict(20));
        radix.checkInvariants();
    }

    @Test
    void aFinishedRequestsPagesDuplicatingTheTreeAreFreed() {
        Request a = prompt(1, 11);
        Request b = prompt(2, 11); // the same 2 shared pages, then its own
        int pa = radix.match(a, radix.maxPrefixPages(a));
        radix.lockMatch(a, pa);
        int pb = radix.match(b, radix.maxPrefixPages(b));
        radix.lockMatch(b, pb);
        assertTrue(radix.allocateOwn(a, 12));
        assertTrue(radix.allocateOwn(b, 12));
        assertEquals(6, pool.usedBlocks());
        a.computedTokens = 12;
        radix.cacheFinished(a);
        b.computedTokens = 12;
        radix.cacheFinished(b); // b's first 2 pages are a's: b's copies are freed, its unique page cached
        assertEquals(4, radix.evictablePages());
        assertEquals(0, pool.usedBlocks());
        radix.checkInvariants();
    }
}
