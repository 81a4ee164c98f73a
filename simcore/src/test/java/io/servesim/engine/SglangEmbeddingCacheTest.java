package io.servesim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.latency.StepShape;
import org.junit.jupiter.api.Test;

/** The SGLang core's multimodal embedding cache ({@link SglangEmbeddingCache}): one entry per request's item set, LRU. */
class SglangEmbeddingCacheTest {
    /** A request of 100 text tokens and then items of {@code lengths} tokens with content ids {@code ids}. */
    private static Request request(long id, long[] ids, int[] lengths) {
        int[] starts = new int[ids.length];
        long[] segments = new long[ids.length + 1];
        int[] segmentLengths = new int[ids.length + 1];
        segments[0] = 1000 + id;
        segmentLengths[0] = 100;
        int at = 100;
        for (int k = 0; k < ids.length; k++) {
            starts[k] = at;
            at += lengths[k];
            segments[k + 1] = ids[k];
            segmentLengths[k + 1] = lengths[k];
        }
        Request r = new Request(id, RequestTags.DEFAULT, TokenSequence.ofSegments(segments, segmentLengths), 1, 0, 0, 0, true);
        r.setMedia(MediaItems.of(ids, starts, lengths));
        return r;
    }

    private static long encoded(SglangEmbeddingCache c, Request r, int prefixLen) {
        StepShape shape = new StepShape();
        c.extend(r, prefixLen, shape);
        return shape.encoderTokens();
    }

    /**
     * Capacity 2,000 tokens. A (two 720-token images ending at 1,540): its first chunk encodes both (1,440); its second
     * chunk (prefix 1,000, the second image not yet computed) hits; a chunk after 1,540 needs nothing. B's image (720)
     * does not fit beside A's entry (2,160 > 2,000): A's, the least recently used, goes. A again (retracted, from 0)
     * misses and evicts B. C's 2,500-token item is larger than the cache: encoded every time, never kept.
     */
    @Test
    void aRequestsItemsAreOneEntryOfAnLruInTokens() {
        SglangEmbeddingCache c = new SglangEmbeddingCache(2000);
        Request a = request(1, new long[] {21, 22}, new int[] {720, 720});
        assertEquals(1440, encoded(c, a, 0));
        assertEquals(0, encoded(c, a, 1000));
        assertEquals(0, encoded(c, a, 1540));
        assertEquals(2, c.cacheHits());
        Request b = request(2, new long[] {23}, new int[] {720});
        assertEquals(720, encoded(c, b, 0));
        assertEquals(720, c.usedTokens());
        assertEquals(1440, encoded(c, a, 0));
        assertEquals(1440, c.usedTokens());
        Request big = request(3, new long[] {24}, new int[] {2500});
        assertEquals(2500, encoded(c, big, 0));
        assertEquals(2500, encoded(c, big, 512));
        assertEquals(1440, c.usedTokens());
        assertEquals(1440 * 2 + 720 + 2500 * 2, c.encodedTokens());
    }
}
