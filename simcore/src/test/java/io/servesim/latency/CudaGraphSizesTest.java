package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * vLLM's default capture sizes ({@code VllmConfig._set_cudagraph_sizes}): 1, 2, 4, multiples of 8 below 256, multiples
 * of 16 from 256, up to min(2 x max_num_seqs, 512, max_num_batched_tokens).
 */
class CudaGraphSizesTest {
    @ParameterizedTest(name = "{0} seats, {1} tokens a step: {2} tokens run at {3}")
    @CsvSource({
        // 128 seats (the shipped DP+EP run): sizes up to 2 x 128 = 256
        "128, 2048, 1, 1", "128, 2048, 2, 2", "128, 2048, 3, 4", "128, 2048, 5, 8", "128, 2048, 100, 104",
        "128, 2048, 248, 248", "128, 2048, 249, 256", "128, 2048, 256, 256", "128, 2048, 257, -1",
        // 256 seats: 512, multiples of 16 above 256
        "256, 8192, 257, 272", "256, 8192, 500, 512", "256, 8192, 513, -1",
        // 1,024 seats: still 512 at most
        "1024, 8192, 512, 512", "1024, 8192, 513, -1",
        // 6 seats: min(12, ...) leaves 1, 2, 4, 8
        "6, 2048, 8, 8", "6, 2048, 9, -1",
        // 128 seats, 200 tokens a step: sizes to 200 (25 x 8)
        "128, 200, 193, 200", "128, 200, 201, -1",
        // 1 seat: min(2, ...) leaves 1 and 2
        "1, 2048, 2, 2", "1, 2048, 3, -1"
    })
    void aStepRunsAtTheSmallestCapturedSizeOrEagerly(int seats, int batchedTokens, long tokens, long expected) {
        assertEquals(expected, CudaGraphSizes.vllmDefault(seats, batchedTokens).paddedTokens(tokens));
    }

    @ParameterizedTest
    @CsvSource({"128, 2048, 256", "6, 2048, 8", "300, 2048, 512", "300, 500, 496", "2, 2048, 4", "1, 2048, 2"})
    void theLargestSizeIsTheLastOneListed(int seats, int batchedTokens, long largest) {
        assertEquals(largest, CudaGraphSizes.vllmDefault(seats, batchedTokens).largest());
    }

    @Test
    void anEngineWithoutSeatsIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> CudaGraphSizes.vllmDefault(0, 2048));
    }
}
