package io.servesim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class TokenSequenceTest {
    @Test
    void equalContentHashesEqualAcrossSegmentations() {
        // [A:10][B:6] and [A:10][B:20] agree on tokens [0,16), differ on [0,17).
        TokenSequence x = TokenSequence.ofSegments(new long[] {1, 2}, new int[] {10, 6});
        TokenSequence y = TokenSequence.ofSegments(new long[] {1, 2}, new int[] {10, 20});
        assertEquals(x.rangeHash(0, 0, 16), y.rangeHash(0, 0, 16));
        assertEquals(x.rangeHash(9, 4, 12), y.rangeHash(9, 4, 12));
        assertNotEquals(x.rangeHash(0, 0, 16), TokenSequence.unique(1, 16).rangeHash(0, 0, 16));
        assertEquals(16, x.length());
        assertEquals(2, x.segmentCount());
    }

    @Test
    void requestOutputIsReusableByAFollowUpPrompt() {
        // A turn's prompt [P:20] plus its 12 output tokens equals the next turn's prompt prefix
        // [P:20][out:12][Q:5]: block hashes of the first 2 blocks (32 tokens) must agree.
        Request turn1 = new Request(1, RequestTags.DEFAULT, TokenSequence.unique(50, 20), 12, 0, 0, 0, true);
        TokenSequence next = TokenSequence.ofSegments(new long[] {50, turn1.outputContentId(), 60}, new int[] {20, 12, 5});
        Request turn2 = new Request(2, RequestTags.DEFAULT, next, 3, 0, 0, 0, true);
        assertEquals(turn1.blockHash(0, 16), turn2.blockHash(0, 16));
        assertEquals(turn1.blockHash(1, 16), turn2.blockHash(1, 16));
    }

    @Test
    void explicitTokenIds() {
        int[] ids = {1, 2, 3, 4};
        assertEquals(TokenSequence.ofTokenIds(ids).rangeHash(0, 0, 4), TokenSequence.ofTokenIds(ids.clone()).rangeHash(0, 0, 4));
        assertNotEquals(TokenSequence.ofTokenIds(ids).rangeHash(0, 0, 4),
                TokenSequence.ofTokenIds(new int[] {1, 2, 3, 5}).rangeHash(0, 0, 4));
    }
}
