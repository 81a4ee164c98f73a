package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The vision encoder read from a config.json ({@link VisionEncoder}) and the encoder's price per step ({@link EncoderLatency}). */
class EncoderLatencyTest {
    private static final ModelArchitecture SCOUT =
            ModelCatalog.builtIn().lookup("redhatai/llama-4-scout-17b-16e-instruct-fp8-dynamic", "x");
    private static final GpuSpec H100 = GpuCatalog.builtIn().lookup("H100", "x");
    /** Hand-set constants (not the fitted ones, which a refit moves): tensor 0.5, memory 0.8, 5 us per kernel. */
    private static final RooflineConstants CONSTANTS = new RooflineConstants(0.5, 0.8, 0.8, 5.0, 0, 0, "test");

    /**
     * Llama-4-Scout's vision_config: 34 layers of 1408 with an MLP of 5632, 336-pixel tiles of 14-pixel patches:
     * (336 / 14)^2 = 576 patches, pixel shuffle 0.5 keeps 576 x 0.25 = 144 tokens per tile. ViT weights 34 x (4 x 1408^2
     * + 2 x 1408 x 5632) = 34 x 23,789,568 = 808,845,312; adapter 5632 x 4096 + 4096 x 4096 = 39,845,888 (5632 = 1408 /
     * 0.25 after the shuffle) and projector 4096 x 5120 (the text width) = 20,971,520: 60,817,408.
     */
    @Test
    void scoutsVisionEncoderIsReadFromItsConfig() {
        VisionEncoder v = SCOUT.vision();
        assertNotNull(v);
        assertEquals(576, v.patchesPerTile());
        assertEquals(144.0, v.tokensPerTile(), 1e-12);
        assertEquals(808_845_312L, v.vitParams());
        assertEquals(60_817_408L, v.adapterParams(SCOUT.hiddenSize()));
        assertNull(ModelCatalog.builtIn().lookup("meta-llama/llama-3.1-8b-instruct", "x").vision(),
                "a text-only model has no vision encoder");
    }

    /**
     * One tile (144 tokens): the ViT's weights over 576 patches, 2 x 808,845,312 x 576 = 931,789,799,424 FLOPs; its
     * attention, 4 x 34 layers x 576^2 x 1408 = 63,531,122,688; the adapter and projector over 144 tokens, 2 x 60,817,408
     * x 144 = 17,515,413,504: 1,012,836,335,616 FLOPs. A 720-token image is 5 tiles: 5,064,181,678,080 FLOPs. On H100 x TP2
     * at tensor 0.5: 5.064e12 / (2 x 989.5e12 x 0.5) = 5,117.92 us of compute against (808,845,312 + 60,817,408) x 2 bytes
     * / (2 x 3.35e12 x 0.8) = 324.50 us of weight reads, plus 34 layers x 8 kernels x 5 us = 1,360 us: 6,477.92 us.
     */
    @Test
    void anImageCostsItsFlopsAtTheTensorPeakPlusTheLayersKernels() {
        EncoderCost cost = new EncoderCost.VisionRoofline(SCOUT.vision(), SCOUT.hiddenSize(), H100, 2, CONSTANTS, "scout");
        assertEquals(1_012_836_335_616.0, SCOUT.vision().flops(144, SCOUT.hiddenSize()), 1.0);
        assertEquals(6_477.92, cost.us(1, 720), 0.01);
        // one token is 1/144 of a tile's FLOPs (7.1 us of compute): the weight reads (324.50 us) bound it
        assertEquals(324.50 + 1_360, cost.us(1, 1), 0.01);
        assertEquals(0, cost.us(0, 0));
    }

    /**
     * A step that encodes nothing is the decoder's step exactly; one that encodes 720 tokens at 10 us per token takes
     * 7,200 us more; forward and layer passes (a drafter's) are the decoder's alone.
     */
    @Test
    void theEncoderAddsToTheStepsThatEncodeOnly() {
        LatencyModel decoder = RooflineModel.sharded(ModelCatalog.builtIn().lookup("meta-llama/llama-3.1-8b-instruct", "x"),
                H100, 1, "x");
        EncoderLatency model = new EncoderLatency(decoder, new EncoderCost.PerToken(10));
        StepShape step = new StepShape();
        step.addPrefill(730, 0);
        long plain = decoder.stepTimeUs(step);
        assertEquals(plain, model.stepTimeUs(step));
        step.addEncoderItems(1, 720);
        assertEquals(plain + 7_200, model.stepTimeUs(step));
        assertEquals(decoder.forwardPassUs(step), model.forwardPassUs(step));
        assertTrue(model.describe().endsWith("multimodal encoder: 10.0 us per encoder token (deployment.encoder_us_per_token)"),
                model.describe());
        step.clearPrefills();
        assertEquals(0, step.encoderTokens(), "the encoder items go with the prefill chunks that needed them");
    }
}
