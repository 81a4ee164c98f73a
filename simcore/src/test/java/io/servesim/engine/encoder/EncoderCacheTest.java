package io.servesim.engine.encoder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EncoderCacheTest {
    @Test
    void aRepeatedItemIsAHitAndNeedsNoRoom() {
        // Capacity 1000. Request 1 encodes image 7 (600 tokens): 400 free. Request 2 carries image 7 again (a
        // session's history): a hit, no tokens taken, still 400 free; both now reference it.
        EncoderCache cache = new EncoderCache(1000);
        assertFalse(cache.checkAndUpdate(7, 1));
        assertTrue(cache.canAllocate(600, 2048, 0));
        cache.allocate(7, 600, 1);
        assertTrue(cache.checkAndUpdate(7, 2));
        assertEquals(400, cache.freeTokens());
        // Request 1 lets go: still referenced by 2, nothing freeable beyond the 400 free.
        cache.free(7, 600, 1);
        assertEquals(400, cache.freeableTokens());
        // Request 2 lets go: the entry is kept but freeable, 400 + 600 = 1000 reclaimable.
        cache.free(7, 600, 2);
        assertEquals(400, cache.freeTokens());
        assertEquals(1000, cache.freeableTokens());
        // A later request still hits it (vLLM keeps unreferenced entries until space is needed).
        assertTrue(cache.checkAndUpdate(7, 3));
        assertEquals(400, cache.freeableTokens());
    }

    @Test
    void evictsTheOldestUnreferencedEntriesOnlyAsNeeded() {
        // Capacity 1000: items 1 (300), 2 (300), 3 (300) each by its own request, then all freed in order 1, 2, 3.
        // 100 free, 1000 freeable. A 450-token item needs 350 more than free: evict 1 (free 400, short), then 2
        // (free 700 >= 450): 2 evictions, item 3 stays cached.
        EncoderCache cache = new EncoderCache(1000);
        for (long id = 1; id <= 3; id++) {
            assertTrue(cache.canAllocate(300, 2048, 0));
            cache.allocate(id, 300, id);
        }
        for (long id = 1; id <= 3; id++) {
            cache.free(id, 300, id);
        }
        assertTrue(cache.canAllocate(450, 2048, 0));
        assertEquals(2, cache.evictions());
        assertEquals(700, cache.freeTokens());
        assertFalse(cache.checkAndUpdate(1, 9));
        assertFalse(cache.checkAndUpdate(2, 9));
        assertTrue(cache.checkAndUpdate(3, 9));
    }

    @Test
    void refusesAnItemAboveTheStepsBudgetOrTheReclaimableRoom() {
        EncoderCache cache = new EncoderCache(1000);
        // 600 tokens against 500 left in the step's encoder budget: refused, whatever the room.
        assertFalse(cache.canAllocate(600, 500, 0));
        cache.allocate(1, 600, 1);
        // Referenced entry holds 600: 400 free and freeable. 300 more with 200 already scheduled this step needs
        // 500 > 400: refused, nothing evicted.
        assertFalse(cache.canAllocate(300, 2048, 200));
        assertEquals(0, cache.evictions());
    }

    @Test
    void budgetFollowsVllmsDefaults() {
        // Defaults: budget = max_num_batched_tokens 8192; the largest item 1000 < 8192 keeps it; cache = budget.
        assertEquals(new EncoderBudget(8192, 8192), EncoderBudget.derive(8192, 1000, 0, 0));
        // An item larger than the step's tokens (2048 < 2500) raises both to 2500 (items are not split).
        assertEquals(new EncoderBudget(2500, 2500), EncoderBudget.derive(2048, 2500, 0, 0));
        // A set cache of 16384 above the budget stays.
        assertEquals(new EncoderBudget(8192, 16384), EncoderBudget.derive(8192, 1000, 0, 16384));
        // A set cache below the budget is vLLM's ValueError.
        assertThrows(IllegalArgumentException.class, () -> EncoderBudget.derive(8192, 1000, 0, 4096));
    }
}
