package io.servesim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The radix tree's invariants under random admissions, chunk inserts, finishes, retractions and evictions: after every
 * operation the tree's own checks hold (lock_ref never negative, a locked node's parent locked, evictable pages = the
 * unlocked nodes' pages summed, protected = the locked ones', the evictable leaves exactly the unlocked childless nodes,
 * the indexed page hashes exactly the nodes' keys) and the pool conserves pages: used = locked nodes' pages + the
 * requests' own pages, free = available + evictable.
 */
class RadixCachePropertyTest {
    @Property(tries = 150)
    void invariantsHoldUnderRandomOperations(@ForAll @IntRange(min = 1, max = 4) int pageSize,
                                             @ForAll @IntRange(min = 8, max = 80) int pages,
                                             @ForAll @IntRange(min = 1, max = 200) int operations,
                                             @ForAll long seed) {
        KvCache pool = new KvCache(pages, pageSize, false);
        RadixCache radix = new RadixCache(pool, true);
        Random rnd = new Random(seed);
        List<Request> active = new ArrayList<>();
        long id = 0;
        for (int op = 0; op < operations; op++) {
            switch (rnd.nextInt(5)) {
                case 0, 1 -> {
                    Request r = SglangHarness.request(++id, TokenSequence.prefixed(rnd.nextInt(3), rnd.nextInt(17),
                            5000 + id, 1 + rnd.nextInt(12)), 1 + rnd.nextInt(5));
                    int matched = radix.match(r, radix.maxPrefixPages(r));
                    assertTrue(matched * pageSize < r.numTokens());
                    radix.lockMatch(r, matched);
                    if (radix.allocateOwn(r, r.numTokens())) {
                        active.add(r);
                        if (rnd.nextBoolean()) {
                            radix.cacheUnfinished(r, matched * pageSize + rnd.nextInt(r.numTokens() - matched * pageSize + 1));
                        }
                    } else {
                        radix.abandon(r);
                    }
                }
                case 2 -> {
                    if (!active.isEmpty()) {
                        Request r = active.remove(rnd.nextInt(active.size()));
                        r.computedTokens = r.numTokens() - rnd.nextInt(2);
                        radix.cacheFinished(r);
                    }
                }
                case 3 -> {
                    if (!active.isEmpty()) {
                        radix.release(active.remove(rnd.nextInt(active.size())));
                    }
                }
                default -> radix.evict(rnd.nextInt(pages));
            }
            radix.checkInvariants();
            pool.checkInvariants();
            long own = 0;
            for (Request r : active) {
                own += r.anonymousTail;
                assertTrue(r.radixNode == null || r.radixNode == radix.root() || r.radixNode.lockRef() > 0, "a running path is locked");
                assertEquals((r.registeredBlocks + r.anonymousTail) * pageSize, r.blockTokens);
            }
            assertEquals(pool.usedBlocks(), radix.protectedPages() + own, "used = locked + own pages");
            assertEquals(pool.freeBlocks(), radix.availablePages() + radix.evictablePages(), "free = available + evictable");
        }
        for (Request r : active) {
            radix.release(r);
        }
        assertEquals(0, radix.protectedPages());
        assertEquals(0, pool.usedBlocks());
        radix.evict(pages);
        assertEquals(0, radix.evictablePages());
        assertEquals(0, radix.pageHashCount());
        radix.checkInvariants();
    }
}
