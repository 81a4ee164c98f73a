package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * One GEMM's roofline with tile and wave quantization, derived by hand. Constants: tensor efficiency 0.8,
 * memory efficiency 0.9, 5 us per kernel. H100: 132 SMs, 989.5 TFLOPS, 3.35 TB/s (x 0.9 = 3.015e12 B/s);
 * RTX PRO 6000: 188 SMs, 503.8 TFLOPS, 1.597 TB/s (x 0.9 = 1.4373e12 B/s).
 */
class GemmTest {
    private static final RooflineConstants C = new RooflineConstants(0.8, 0.9, 0.9, 5, 0, 0, "test");
    private static final GpuSpec H100 = GpuCatalog.builtIn().lookup("H100", "x");
    private static final GpuSpec RTX = GpuCatalog.builtIn().lookup("RTXPRO6000", "x");

    private static Gemm bf16(int n, int k, GpuSpec gpu) {
        return new Gemm(n, k, 2, 2, gpu.peakFlopsPerSecond(2), gpu, C);
    }

    @Test
    void aLargeSquareGemmOnH100IsComputeBoundWithEightWaves() {
        // M = N = K = 4096. 128x128 tiles: 32 x 32 = 1024 tiles over 132 SMs = 7.76 -> 8 waves;
        // 128x256 and 256x128: 512 tiles -> 4 waves; 64x128: 2048 tiles -> 16 waves: all 17,301,504 tile rows x cols
        // compute = 2 x 17,301,504 x 4096 / (989.5e12 x 0.8) = 179.047 us (173.6 us without quantization: +3.1%)
        // memory  = (4096 x 4096 x 2 + 4096 x (4096 + 4096) x 2) B / 3.015e12 = 33.387 us
        // time    = 179.047 + 5 launch = 184.047 us
        assertEquals(184.047, bf16(4096, 4096, H100).timeUs(4096), 0.001);
    }

    @Test
    void aDecodeGemmIsMemoryBoundAtItsWeightBytes() {
        // M = 1: tiles 16 rows tall (the smallest MMA height); 16x128: 32 tiles -> 1 wave of 132 x 16 x 128
        // compute = 2 x 270,336 x 4096 / 7.916e14 = 2.798 us
        // memory  = (33,554,432 weights + 1 x 8192 x 2 activations) B / 3.015e12 = 11.135 us
        // time    = 11.135 + 5 = 16.135 us (Vidur measures Llama-2-7B's o_proj at 1 token on an H100 at 16 us)
        assertEquals(16.135, bf16(4096, 4096, H100).timeUs(1), 0.001);
    }

    @Test
    void waveQuantizationOnRtxPro6000PicksTheTileWithTheLeastIdleWork() {
        // Llama-3.1-8B QKV at 512 tokens: N = 6144, K = 4096, 188 SMs.
        // 128x128: 4 x 48 = 192 tiles -> 2 waves (6,160,384); 128x256 / 256x128: 96 tiles -> 1 wave (6,160,384);
        // 64x128: 8 x 48 = 384 tiles -> 3 waves = 3 x 188 x 64 x 128 = 4,620,288 <- least
        // compute = 2 x 4,620,288 x 4096 / (503.8e12 x 0.8) = 93.910 us (63.9 us unquantized)
        // memory  = (50,331,648 + 512 x 10,240 x 2) B / 1.4373e12 = 42.314 us
        // time    = 93.910 + 5 = 98.910 us (LLMServingSim's profile measures 92.8 us)
        assertEquals(98.910, bf16(6144, 4096, RTX).timeUs(512), 0.001);
    }

    @Test
    void noRowsLaunchNothingAndTimeNeverDecreasesWithRows() {
        Gemm g = bf16(6144, 4096, RTX);
        assertEquals(0.0, g.timeUs(0));
        double previous = 0;
        for (int m = 1; m <= 8192; m++) {
            double t = g.timeUs(m);
            assertTrue(t >= previous, "m " + m + ": " + t + " < " + previous);
            previous = t;
        }
    }
}
