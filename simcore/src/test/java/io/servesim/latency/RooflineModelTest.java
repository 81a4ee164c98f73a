package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Hand-derived operator-level roofline numbers, with test constants: tensor efficiency 0.8, memory
 * efficiency 0.9, 5 us per kernel, 100 us per step, 2 us per sequence. Llama-3.1-8B: 32 layers, hidden
 * 4096, 32 heads / 8 KV heads of 128, MLP 14336, vocab 128256; KV 131,072 B/token; attention
 * 524,288 FLOPs per (query, key) pair over all layers. H100: 132 SMs, 989.5 TFLOPS, 3.35 TB/s.
 * GEMM times are {@link Gemm}'s (see GemmTest for one derived in full).
 */
class RooflineModelTest {
    private static final RooflineConstants C = new RooflineConstants(0.8, 0.9, 0.9, 5, 100, 2, "test");
    private static final GpuSpec H100 = GpuCatalog.builtIn().lookup("H100", "x");
    private static final ModelArchitecture LLAMA_8B = ModelCatalog.builtIn().lookup("meta-llama/llama-3.1-8b-instruct", "x");

    private static RooflineModel roofline(ModelArchitecture m, int tp) {
        return new RooflineModel(m, H100, tp, C);
    }

    @Test
    void llama8bDecodeBatch1IsTheWeightsAtTheMemoryEfficiency() {
        StepShape step = new StepShape();
        step.addDecode(1000);
        // per layer, each GEMM memory-bound at M = 1 (bytes / 3.015e12 + 5 us):
        //   QKV 6144x4096 16.71 + O 4096x4096 16.13 + gate/up 28672x4096 82.92 + down 4096x14336 48.96 = 164.725 us
        // LM head 128256x4096: 1,051,705,344 B / 3.015e12 + 5 = 353.570 us
        // attention: 1,001 KV tokens x 131,072 B / 3.015e12 = 43.517 us (FLOPs: 0.66 us)
        // element-wise: 32 x 2 B x (4 x 4096 + 3 x 14336 + 2 x 40 x 128) / 3.015e12 = 1.478 us
        // GPU fixed: 32 layers x 6 other kernels x 5 us = 960 us
        // GPU = 960 + 32 x 164.725 + 353.570 + 43.517 + 1.478 = 6,629.78 us; CPU = 100 step + 1 sequence x 2 = 102 us
        // async scheduling: max(6,629.78, 102) -> 6,630 us; without it the two add: 6,731.78 -> 6,732 us
        assertEquals(6630, roofline(LLAMA_8B, 1).stepTimeUs(step));
        assertEquals(6732, roofline(LLAMA_8B, 1).serialStepTimeUs(step));
    }

    @Test
    void llama8bPrefill2048IsComputeBound() {
        StepShape step = new StepShape();
        step.addPrefill(2048, 0);
        // GEMMs at M = 2048, compute-bound with wave quantization (+5 us each):
        //   QKV 139.286 + O 94.524 + gate/up 620.475 + down 318.333 = 1,172.618 us per layer
        // attention: 2048 x 2049 / 2 pairs x 524,288 / (989.5e12 x 0.8) = 1,389.652 us
        // element-wise: 2048 x 1.478 = 3,027.133 us; LM head (1 sequence) 353.570 us
        // GPU = 960 + 32 x 1,172.618 + 1,389.652 + 3,027.133 + 353.570 = 43,254.1 -> 43,254 us (CPU 102 us hidden)
        assertEquals(43254, roofline(LLAMA_8B, 1).stepTimeUs(step));
    }

    @Test
    void tensorParallelShardsGemmsAndAddsAllReduces() {
        StepShape step = new StepShape();
        step.addDecode(1000);
        long tp1 = roofline(LLAMA_8B, 1).stepTimeUs(step);
        long tp2 = roofline(LLAMA_8B, 2).stepTimeUs(step);
        // per GPU about half the weight bytes (-2.6 ms) but 64 all-reduces of 1 token x 4096 x 2 B = 8,192 B, vLLM's
        // one-shot custom all-reduce over NVLink: 5 + 2 x 0.6 + 8,192 / 370,800 = 6.2221 us each (+398.2 us)
        assertTrue(tp2 < tp1 && tp2 > tp1 / 2 + 398, tp1 + " vs " + tp2);
        assertEquals(64 * (6.2 + 8192 / 370_800.0), roofline(LLAMA_8B, 2).allReduceUs(1), 1e-9);
    }

    @Test
    void theSameStepCostsMoreOverPcieThanOverNvlink() {
        GpuSpec pcie = new GpuSpec("H100-PCIE-LINK", java.util.List.of(), H100.bf16Tflops(), H100.fp8Tflops(),
                H100.memoryBandwidthTBps(), H100.memoryGiB(), H100.smCount(), H100.computeCapability(), H100.boostClockMhz(),
                Interconnect.pcie(5, 16, true, 1.0, 8, 50, 2.7),
                H100.hostLinkGbPerS(), "test: H100 numbers over PCIe Gen5 x16");
        StepShape step = new StepShape();
        step.addPrefill(2048, 0);
        // TP 2, 2,048 tokens x 4,096 x 2 B = 16 MiB per all-reduce, both over NCCL (above the custom 8 MiB):
        //   NVLink ring Simple 8.4 + 2 x 3.4 + 16,777,216 / 370,800 = 60.446 us
        //   PCIe Gen5 (NCCL: 16 x 240 / 80 = 48 GB/s) ring Simple 8.4 + 2 x 5.7 + 16,777,216 / 48,000 = 369.325 us
        assertEquals(64 * (15.2 + 16_777_216 / 370_800.0), roofline(LLAMA_8B, 2).allReduceUs(2048), 1e-6);
        assertEquals(64 * (19.8 + 16_777_216 / 48_000.0), new RooflineModel(LLAMA_8B, pcie, 2, C).allReduceUs(2048), 1e-6);
        long nvlink = roofline(LLAMA_8B, 2).stepTimeUs(step);
        long overPcie = new RooflineModel(LLAMA_8B, pcie, 2, C).stepTimeUs(step);
        assertEquals(Math.round(64 * (19.8 + 16_777_216 / 48_000.0) - 64 * (15.2 + 16_777_216 / 370_800.0)), overPcie - nvlink, 1);
        assertTrue(new RooflineModel(LLAMA_8B, pcie, 2, C).describe().contains("PCIe Gen5 x16"));
    }

    @Test
    void touchedExpertsFollowUniformRoutingAndSaturate() {
        RooflineModel qwen = roofline(ModelCatalog.builtIn().lookup("qwen/qwen3-30b-a3b", "x"), 1);
        assertEquals(0.0, qwen.touchedExperts(0));
        assertEquals(8.0, qwen.touchedExperts(1)); // 128 x (1 - 0.9375)
        // 2 tokens: 128 x (1 - 0.9375^2) = 15.5 < 2 x 8
        assertEquals(15.5, qwen.touchedExperts(2), 1e-9);
        assertTrue(qwen.touchedExperts(4096) > 127.99 && qwen.touchedExperts(4096) <= 128);
        assertEquals(0.0, roofline(LLAMA_8B, 1).touchedExperts(100), "dense model");
    }

    @Test
    void moeDecodeReadsOnlyTheExpertsItsTokensTouch() {
        RooflineModel qwen = roofline(ModelCatalog.builtIn().lookup("qwen/qwen3-30b-a3b", "x"), 1);
        StepShape one = new StepShape();
        one.addDecode(1000);
        StepShape many = new StepShape();
        for (int i = 0; i < 64; i++) {
            many.addDecode(1000);
        }
        // 1 token reads 8 of 128 experts per layer; 64 tokens read 128 x (1 - 0.9375^64) = 125.94: 117.94 more experts of
        // 3 x 2048 x 768 x 2 = 9,437,184 B in each of 48 layers, 17,720.1 us at 3.015e12 B/s. The other 63 sequences'
        // KV reads add 63 x 1,001 tokens x 98,304 B / 3.015e12 = 2,056.2 us; their activations, element-wise bytes and
        // LM-head rows about 220 us, and the router's and O projection's GEMMs, now a full wave of 64-row tiles each, about
        // 470 us: 667 us in all besides the experts and the KV.
        double extraExperts = 48 * (qwen.touchedExperts(64) - 8) * 9_437_184 / 3.015e12 * 1e6;
        double extraKv = 63.0 * 1001 * 98_304 / 3.015e12 * 1e6;
        long extra = qwen.stepTimeUs(many) - qwen.stepTimeUs(one);
        assertEquals(17_720.1, extraExperts, 0.1);
        assertTrue(extra > extraExperts + extraKv + 600 && extra < extraExperts + extraKv + 750, "extra " + extra);
    }

    @Test
    void weightsAreReadOncePerStepNotPerSequence() {
        RooflineModel model = roofline(LLAMA_8B, 1);
        StepShape one = new StepShape();
        one.addDecode(1000);
        StepShape two = new StepShape();
        two.addDecode(1000);
        two.addDecode(1000);
        // the second sequence adds its KV (1,001 x 131,072 B / 3.015e12 = 43.5 us), its LM-head and GEMM
        // activation rows and element-wise bytes (< 1 us) to the GPU time (its 2 us of CPU hide behind it):
        // not 5 ms of weights
        long extra = model.stepTimeUs(two) - model.stepTimeUs(one);
        assertTrue(extra >= 43 && extra <= 46, "extra " + extra);
    }

    /**
     * On an H100 (FlashAttention-3) a decode's tile packs its KV head's 4 query heads into 128 rows, 32 per query head,
     * whose MMAs overlap the KV reads: beside a chunk as alone, the longer of the two.
     */
    @Test
    void onFlashAttention3ADecodeCostsTheLongerOfItsPackedTilesAndItsKvReads() {
        RooflineModel model = roofline(LLAMA_8B, 1);
        StepShape chunk = new StepShape();
        chunk.addPrefill(16, 0);
        StepShape mixed = new StepShape();
        mixed.addPrefill(16, 0);
        mixed.addDecode(1000);
        StepShape decode = new StepShape();
        decode.addDecode(1000);
        // 1,001 KV tokens: reads 1,001 x 131,072 B / 3.015e12 = 43.517 us; one query row's FLOPs, 1,001 x 524,288 /
        // (989.5e12 x 0.8) = 0.663 us, x 32 rows per query head = 21.215 us of tile MMAs: the reads are longer.
        assertEquals(43.517, model.attentionUs(decode), 1e-3);
        assertEquals(43.517, model.attentionUs(mixed) - model.attentionUs(chunk), 1e-3);
    }

    /** FlashAttention-3's rows per query head of a decode: a KV head's query heads packed into kBlockM-row tiles. */
    @Test
    void flashAttention3PacksAKvHeadsQueryHeadsIntoItsTileRows() {
        assertEquals(32, RooflineModel.flashAttention3RowsPerDecode(32, 8, 128), 1e-12); // 128 / 4
        assertEquals(128, RooflineModel.flashAttention3RowsPerDecode(32, 32, 128), 1e-12); // MHA: one query per tile
        assertEquals(16, RooflineModel.flashAttention3RowsPerDecode(64, 8, 128), 1e-12); // 128 / 8
        assertEquals(128.0 / 7, RooflineModel.flashAttention3RowsPerDecode(28, 4, 128), 1e-12);
        assertEquals(48, RooflineModel.flashAttention3RowsPerDecode(32, 8, 64), 1e-12); // head dim <= 96: 192 / 4
        assertEquals(256.0 / 200, RooflineModel.flashAttention3RowsPerDecode(200, 1, 128), 1e-12); // two tiles
    }

    /**
     * On an RTX PRO 6000 (compute capability 12.0: vLLM runs FlashAttention-2) a decode beside a chunk is priced as its
     * query tiles run on the SMs, with test cycles 30 per KV token, 8,000 per tile, 1,000 per idle tile. Llama-3.1-8B:
     * 32 layers x 32 query heads over 188 SMs x 2,617 MHz = 491,996 SM cycles per us: 0.00208132 us per tile cycle.
     * 64 decodes of 1,000 tokens beside a 256-token chunk: 64,064 KV tokens.
     * MMAs at the datasheet peak: 64,064 x 64 x 524,288 FLOPs / 503.8e12 = 4,266.834 us;
     * cycles: 64,064 x 30 + 64 x 8,000 + 64 x (ceil(256 / 64) - 1) x 1,000 = 2,625,920 -> 5,465.374 us;
     * tiles 9,732.208 us against the KV reads, 64,064 x 131,072 B / (1.597e12 x 0.9) = 5,842.202 us: the tiles.
     * Beside a 16-token chunk no block idles: 4,266.834 + 2,433,920 cycles = 9,332.595 us.
     */
    @Test
    void onFlashAttention2GpusADecodeBesideAChunkCostsItsTilesSmCycles() {
        GpuSpec pro = GpuCatalog.builtIn().lookup("RTXPRO6000", "x");
        RooflineConstants cycles = new RooflineConstants(0.8, 0.9, 0.9, 5, 100, 2,
                new RooflineConstants.FlashAttention2(30, 8000, 1000), "test");
        RooflineModel model = new RooflineModel(LLAMA_8B, pro, 1, cycles);
        assertEquals(AttentionBackend.FLASH_ATTENTION_2, AttentionBackend.of(pro.computeCapability()));
        assertEquals(491_996, pro.smCyclesPerUs(), 1e-9);
        for (int[] c : new int[][] {{256, 9_732_208}, {16, 9_332_595}}) {
            StepShape chunk = new StepShape();
            chunk.addPrefill(c[0], 0);
            StepShape mixed = new StepShape();
            mixed.addPrefill(c[0], 0);
            for (int i = 0; i < 64; i++) {
                mixed.addDecode(1000);
            }
            assertEquals(c[1] / 1e3, model.attentionUs(mixed) - model.attentionUs(chunk), 1e-3, "chunk " + c[0]);
        }
        // without cycles beyond the MMAs (4,266.834 us) the KV reads are the longer
        RooflineModel mmaOnly = new RooflineModel(LLAMA_8B, pro, 1, new RooflineConstants(0.8, 0.9, 0.9, 5, 100, 2, "test"));
        StepShape chunk = new StepShape();
        chunk.addPrefill(256, 0);
        StepShape mixed = new StepShape();
        mixed.addPrefill(256, 0);
        for (int i = 0; i < 64; i++) {
            mixed.addDecode(1000);
        }
        assertEquals(5842.202, mmaOnly.attentionUs(mixed) - mmaOnly.attentionUs(chunk), 1e-3);
    }

    @Test
    void theAttentionEfficiencyPricesTheKvReadsAlone() {
        // the batch-1 decode above with the paged KV read at 0.6 of the 3.35 TB/s peak instead of 0.9: attention
        // 1,001 x 131,072 B / 2.01e12 = 65.276 us (+21.759 us); GEMMs, LM head and element-wise bytes stay at 0.9.
        // One layer's attention block as a profile times it: 65.276 / 32 + 2 kernels x 5 us = 12.040 us
        RooflineModel slowKv = new RooflineModel(LLAMA_8B, H100, 1, new RooflineConstants(0.8, 0.9, 0.6, 5, 100, 2, "test"));
        StepShape step = new StepShape();
        step.addDecode(1000);
        assertEquals(65.276, slowKv.attentionUs(step), 1e-3);
        assertEquals(12.040, slowKv.attentionLayerUs(step), 1e-3);
        assertEquals(6630 + 22, slowKv.stepTimeUs(step));
    }

    @Test
    void cpuTimeHidesBehindTheGpuWithAsyncSchedulingAndAddsWithout() {
        RooflineModel slowCpu = new RooflineModel(LLAMA_8B, H100, 1, new RooflineConstants(0.8, 0.9, 0.9, 5, 10_000, 2, "test"));
        StepShape step = new StepShape();
        step.addDecode(1000);
        // GPU 6,629.78 us (as above) < CPU 10,000 + 2 us: the CPU sets the step; in series 16,631.78 -> 16,632 us
        assertEquals(10_002, slowCpu.stepTimeUs(step));
        assertEquals(16_632, slowCpu.serialStepTimeUs(step));
    }

    @Test
    void calibratedOnlyOnTheGpusTheBundledConstantsWereFittedOn() {
        // roofline_constants.yaml fitted_on: [H100, RTXPRO6000, A100-80GB]; L40S has a datasheet row and no data
        assertEquals("", new RooflineModel(LLAMA_8B, H100, 1).calibrationNote());
        String note = new RooflineModel(LLAMA_8B, GpuCatalog.builtIn().lookup("L40S", "x"), 1).calibrationNote();
        assertTrue(note.startsWith("uncalibrated: no GEMM or engine-step measurements of L40S were used in fitting") && note.contains("NVIDIA L40S datasheet")
                && note.endsWith("fitted on H100, RTXPRO6000, A100-80GB"), note);
        // the RTX 4090's attention kernels are in the fit, its GEMMs and steps are not: it stays uncalibrated
        assertTrue(new RooflineModel(LLAMA_8B, GpuCatalog.builtIn().lookup("RTX4090", "x"), 1).calibrationNote()
                .startsWith("uncalibrated: no GEMM or engine-step measurements of RTX4090"));
        assertTrue(RooflineConstants.bundled().provenance().contains("RTX4090: attention kernels only"),
                RooflineConstants.bundled().provenance());
        // hand-set constants were fitted on nothing
        assertTrue(roofline(LLAMA_8B, 1).calibrationNote().endsWith("fitted on no GPU"));
    }

    @Test
    void emptyStepCostsTheStepOverhead() {
        assertEquals(100, roofline(LLAMA_8B, 1).stepTimeUs(new StepShape()));
    }

    @Test
    void describeNamesModelGpuTpAndTheConstants() {
        String d = roofline(LLAMA_8B, 2).describe();
        assertTrue(d.startsWith("roofline meta-llama/llama-3.1-8b-instruct on H100 x TP2"), d);
        assertTrue(d.contains("132 SMs") && d.contains("tensor 0.800"), d);
    }

    @Test
    void theBundledConstantsAreEfficienciesBelowPeak() {
        RooflineConstants b = RooflineConstants.bundled();
        assertTrue(b.tensorEfficiency() > 0.5 && b.tensorEfficiency() < 1, b.describe());
        assertTrue(b.memoryEfficiency() > 0.5 && b.memoryEfficiency() < 1, b.describe());
        assertTrue(b.provenance().contains("RooflineFit"), b.provenance());
    }
}
