package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Hand-derived fused-MoE times of Qwen3-30B-A3B's experts (hidden 2048, expert width 768, 128 experts, top 8, BF16) on
 * an H100 (132 SMs, 989.5 TFLOPS, 3.35 TB/s) with test constants: tensor efficiency 0.8 (791.6 TFLOPS), memory
 * efficiency 0.9 (3.015e12 B/s), 5 us per kernel. w1 is 1536 x 2048, w2 2048 x 768.
 */
class FusedMoeTest {
    private static final RooflineConstants C = new RooflineConstants(0.8, 0.9, 0.9, 5, 100, 2, "test");
    private static final GpuSpec H100 = GpuCatalog.builtIn().lookup("H100", "x");
    private static final FusedMoe QWEN = new FusedMoe(768, 2048, 2, 2, H100.peakFlopsPerSecond(2), H100, C);

    @Test
    void oneTokenReadsItsEightExpertsOnceInTwoGemmsAndThreeRoutingKernels() {
        // 1 token <= 128 experts: 16 x 32 tiles; 8 pairs on 8 experts, each padded to 16 rows: 8 blocks.
        // w1: 8 x 48 = 384 tiles, 3 waves (1.049 us) < memory (8 x 1536 x 2048 x 2 + 8 x 3584 x 2 B) / 3.015e12 = 16.7128 us
        // w2: memory (8 x 2048 x 768 x 2 + 8 x 2816 x 2 B) / 3.015e12 = 8.3618 us
        // 16.7128 + 8.3618 + 2 x 5 (GEMM kernels) + 3 x 5 (topk, align, sum) = 50.0746 us
        assertEquals(50.0746, QWEN.timeUs(1, 128, 8, 8), 1e-4);
    }

    @Test
    void aLargeBatchOnFewExpertsIsOneComputeBoundGridOfLargeTiles() {
        // 2,048 tokens > 128 experts: 64 x 64 tiles; 16,384 pairs on 8 experts = 2,048 rows each: 8 x 32 = 256 blocks.
        // w1: 256 x 24 = 6,144 tiles, 47 waves x 132 x 64 x 64 x 2 x 2048 FLOPs / 791.6e12 = 131.488 us (memory 55.6 us)
        // w2: 256 x 32 = 8,192 tiles, 63 waves x 132 x 64 x 64 x 2 x 768 FLOPs / 791.6e12 = 66.094 us (memory 39.0 us)
        // 131.488 + 66.094 + 25 = 222.582 us
        assertEquals(222.582, QWEN.timeUs(2048, 128, 16384, 8), 1e-3);
    }

    @Test
    void paddingToTheBlockRowsCostsComputeNotWeightReads() {
        // 17 pairs on one expert pad to 2 blocks of 16 rows; 16 pairs fill 1. Both read the expert's weights once:
        // memory-bound either way, so one more row adds only its activations.
        double sixteen = QWEN.timeUs(16, 128, 16, 1);
        double seventeen = QWEN.timeUs(17, 128, 17, 1);
        assertEquals((3584 + 2816) * 2 / 3.015e12 * 1e6, seventeen - sixteen, 1e-9);
        assertEquals(0.0, QWEN.timeUs(0, 128, 0, 0), "no pairs, no kernels");
    }

    @Test
    void groupingTheExpertsIntoOneGridBeatsOneFullWavePerExpert() {
        // 2,048 tokens on all 128 experts, 128 rows each. Alone, each expert's w1 GEMM would run at least one wave of
        // 132 tiles (5.6 us of compute); grouped, the 128 x 2 x 24 tiles of w1 share 47 waves, and both GEMMs together
        // are bound by reading the 128 experts' weights once (470 us + 25 us of kernels)
        double grouped = QWEN.timeUs(2048, 128, 16384, 128);
        Gemm perExpert = new Gemm(1536, 2048, 2, 2, H100.peakFlopsPerSecond(2), H100, C);
        assertTrue(grouped < 128 * (perExpert.timeUs(128) - 5), grouped + " vs " + 128 * (perExpert.timeUs(128) - 5));
    }
}
