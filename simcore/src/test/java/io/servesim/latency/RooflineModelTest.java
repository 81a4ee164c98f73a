package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Hand-derived roofline numbers. Llama-3.1-8B facts used below (see ModelArchitectureTest):
 * always-read weights = embedding/LM head 525,336,576 x 2 B + decoder layers 6,979,588,096 x 2 B
 * = 15,009,849,344 B; KV 131,072 B/token; activations 2 x 32 x 4096 x 2 = 524,288 B/token;
 * linear FLOPs 13,958,643,712 /token; LM head 1,050,673,152 /sequence; attention 524,288 /pair.
 * H100: 989.5 TFLOPS, 3.35 TB/s, MFU 0.45 prefill / 0.30 decode.
 */
class RooflineModelTest {
    private static final GpuSpec H100 = GpuCatalog.builtIn().lookup("H100", "x");
    private static final ModelArchitecture LLAMA_8B = ModelCatalog.builtIn().lookup("meta-llama/llama-3.1-8b-instruct", "x");

    private static RooflineModel roofline(ModelArchitecture m, int tp) {
        return new RooflineModel(m, H100, tp, H100.mfuPrefill(), H100.mfuDecode());
    }

    @Test
    void llama8bDecodeBatch1IsMemoryBoundAtAboutSevenMilliseconds() {
        StepShape step = new StepShape();
        step.addDecode(1000);
        // bytes = 15,009,849,344 weights + 1,001 x 131,072 KV (1,000 read + 1 written) + 524,288 activations
        //       = 15,141,576,704 B / (3.35e12 B/s x 0.72 bandwidth efficiency = 2.412e12) = 6,277.60 us
        // FLOPs = 13,958,643,712 + 1,050,673,152 + 1,001 pairs x 524,288 = 15,534,129,152
        //       / (989.5e12 x 0.30) = 52.3 us  -> memory-bound
        // step = 6,277.60 + 500 overhead = 6,777.60 -> 6,778 us
        assertEquals(6778, roofline(LLAMA_8B, 1).stepTimeUs(step));
    }

    @Test
    void llama8bPrefill2048IsComputeBoundAtAboutSixtySevenMilliseconds() {
        StepShape step = new StepShape();
        step.addPrefill(2048, 0);
        // FLOPs = 2048 x 13,958,643,712 (28,587,302,322,176) + 1 x 1,050,673,152
        //       + 2048 x 2049 / 2 causal pairs (2,098,176) x 524,288 (1,100,048,498,688)
        //       = 29,688,401,494,016 / (989.5e12 x 0.45) = 66,674.31 us
        // bytes = 15,009,849,344 + 2048 x (131,072 + 524,288) = 16,352,026,624 B / 2.412e12 -> 6,779 us (compute wins)
        // step = 66,674.31 + 500 = 67,174.31 -> 67,174 us
        assertEquals(67174, roofline(LLAMA_8B, 1).stepTimeUs(step));
    }

    @Test
    void tensorParallelHalvesWeightsAndAddsAllReduces() {
        StepShape step = new StepShape();
        step.addDecode(1000);
        // per GPU: weights 7,504,924,672 + KV 1,001 x 65,536 (4 of 8 KV heads) + activations 524,288
        //   = 7,571,050,496 B / 2.412e12 = 3,138.91 us (compute 26 us)
        // all-reduces: 2 per layer x 32 = 64 x 20 us = 1,280 us
        //   + 64 x 2(2-1)/2 x (1 token x 4096 x 2 B) / 300e9 B/s = 1.75 us
        // step = 3,138.91 + 1,281.75 + 500 = 4,920.66 -> 4,921 us
        assertEquals(4921, roofline(LLAMA_8B, 2).stepTimeUs(step));
    }

    @Test
    void moeDecodeReadsOnlyTheExpertsItsTokensTouch() {
        ModelArchitecture qwen = ModelCatalog.builtIn().lookup("qwen/qwen3-30b-a3b", "x");
        StepShape step = new StepShape();
        step.addDecode(1000);
        // one token touches 128 x (1 - (120/128)^1) = 8 experts per layer
        // bytes = embedding 151,936 x 2048 x 2 (622,329,856) + non-expert layers 918,751,232 x 2 (1,837,502,464)
        //       + 8 experts x 48 layers x (3 x 2048 x 768 x 2 B = 9,437,184) (3,623,878,656)
        //       + KV 1,001 x 98,304 (98,402,304) + activations 2 x 48 x 2048 x 2 (393,216)
        //       = 6,182,506,496 B / 2.412e12 = 2,563.23 us (compute 23 us)
        // step = 2,563.23 + 500 = 3,063.23 -> 3,063 us; all 128 experts would be 18.2 GB, > 7.5 ms
        assertEquals(3063, roofline(qwen, 1).stepTimeUs(step));
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
    void weightsAreReadOncePerStepNotPerSequence() {
        RooflineModel model = roofline(LLAMA_8B, 1);
        StepShape one = new StepShape();
        one.addDecode(1000);
        StepShape two = new StepShape();
        two.addDecode(1000);
        two.addDecode(1000);
        // the second sequence adds only its KV (1,001 x 131,072 B / 2.412e12 B/s = 54.4 us) and activations
        // (0.2 us), not 6.2 ms of weights
        long extra = model.stepTimeUs(two) - model.stepTimeUs(one);
        assertTrue(extra >= 54 && extra <= 56, "extra " + extra);
    }

    @Test
    void emptyStepCostsTheFixedOverhead() {
        assertEquals(RooflineModel.STEP_OVERHEAD_US, roofline(LLAMA_8B, 1).stepTimeUs(new StepShape()));
    }

    @Test
    void describeNamesModelGpuAndTp() {
        String d = roofline(LLAMA_8B, 2).describe();
        assertTrue(d.startsWith("roofline meta-llama/llama-3.1-8b-instruct on H100 x TP2"), d);
    }
}
