package io.servesim.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.engine.KvBlockListener;
import io.servesim.engine.KvCache;
import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The walk over the engines' own indexes ({@link DirectPrefixOverlap}) gives every instance the same
 * overlap as the router-side copy ({@link PrefixIndex}) fed by the same caches' stored/removed
 * events, after every admission and release of a random stream of requests sharing prefixes over
 * small caches (so blocks are evicted, re-stored and held by several instances at once).
 */
class DirectPrefixOverlapPropertyTest {
    private static final int BLOCK = 4;

    @Property(tries = 40)
    void walkingTheEnginesIndexesEqualsTheRouterCopy(@ForAll long seed, @ForAll @IntRange(min = 1, max = 4) int instances,
                                                      @ForAll @IntRange(min = 6, max = 40) int blocksPerCache) {
        Random rng = new Random(seed);
        KvCache[] caches = new KvCache[instances];
        PrefixIndex copy = new PrefixIndex(instances);
        List<List<Request>> held = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            int id = i;
            caches[i] = new KvCache(blocksPerCache, BLOCK, true);
            caches[i].setListener(new KvBlockListener() {
                @Override
                public void stored(long hash) {
                    copy.stored(id, hash);
                }

                @Override
                public void removed(long hash) {
                    copy.removed(id, hash);
                }
            });
            held.add(new ArrayList<>());
        }
        int[] fromCopy = new int[instances];
        for (int op = 0; op < 300; op++) {
            int i = rng.nextInt(instances);
            if (!held.get(i).isEmpty() && rng.nextInt(3) == 0) {
                caches[i].release(held.get(i).remove(rng.nextInt(held.get(i).size())));
            } else {
                Request r = request(op, rng);
                int hits = caches[i].lookupPrefix(r);
                if (caches[i].allocateNew(r, hits, r.numTokens())) {
                    held.get(i).add(r);
                }
            }
            Request probe = request(-1 - op, rng);
            copy.overlap(probe, BLOCK, fromCopy);
            for (int k = 0; k < instances; k++) {
                assertEquals(fromCopy[k], DirectPrefixOverlap.overlap(caches[k], probe, BLOCK),
                        "instance " + k + " after operation " + op);
            }
        }
    }

    /** A prompt of 1-3 segments drawn from 4 contents (so prompts share prefixes), all of it shareable. */
    private static Request request(long id, Random rng) {
        int segments = 1 + rng.nextInt(3);
        long[] ids = new long[segments];
        int[] lengths = new int[segments];
        int total = 0;
        for (int s = 0; s < segments; s++) {
            ids[s] = rng.nextInt(4);
            lengths[s] = 1 + rng.nextInt(3 * BLOCK);
            total += lengths[s];
        }
        return new Request(id, RequestTags.DEFAULT, TokenSequence.ofSegments(ids, lengths, total), 4, 0, 0, 0, true);
    }
}
