package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The verify pass on the roofline (its GEMMs grow with the draft tokens, its weight reads do not) and the drafter's
 * price per method ({@link SpeculativeLatency}), Llama-3.1-8B on one H100.
 */
class SpeculativeLatencyTest {
    private static final GpuSpec H100 = GpuCatalog.builtIn().lookup("H100", "x");
    private static final ModelArchitecture LLAMA_8B = ModelCatalog.builtIn().lookup("meta-llama/llama-3.1-8b-instruct", "x");
    private static final RooflineModel TARGET = new RooflineModel(LLAMA_8B, H100, 1);

    private static StepShape decodes(int seqs, int context, int drafts) {
        StepShape s = new StepShape();
        for (int i = 0; i < seqs; i++) {
            s.addVerify(context, drafts);
        }
        return s;
    }

    /**
     * One sequence: the step reads the 16 GB of weights whatever its 1 or 4 tokens, so verifying 3 drafts costs under
     * 10% more than a decode; 256 sequences: 256 x 4 = 1,024 tokens make the GEMMs compute-bound, and the same drafts
     * cost more than half again. The gain of accepted tokens per step fades as the batch grows.
     */
    @Test
    void verifyingDraftsIsNearlyFreeWhenMemoryBoundAndNotWhenComputeBound() {
        double one = TARGET.gpuUs(decodes(1, 1000, 0));
        double oneVerify = TARGET.gpuUs(decodes(1, 1000, 3));
        double many = TARGET.gpuUs(decodes(256, 1000, 0));
        double manyVerify = TARGET.gpuUs(decodes(256, 1000, 3));
        System.out.printf("decode 1 seq %.0f us, verify 3 drafts %.0f us; 256 seqs %.0f us, verify %.0f us%n", one, oneVerify,
                many, manyVerify);
        assertTrue(oneVerify / one < 1.10, "memory-bound: " + oneVerify / one);
        assertTrue(manyVerify / many > 1.5, "compute-bound: " + manyVerify / many);
    }

    @Test
    void attentionOfAVerifyPassCountsItsCausalPairs() {
        // a sequence over c = 1000 keys verifying d = 3 drafts: queries attend over 1001..1004 keys, 4,010 pairs, which
        // addVerify records as the decode's 1,001 plus 3 x 1000 + 4 x 5 / 2 - 1 = 3,009
        StepShape s = decodes(1, 1000, 3);
        assertEquals(3, s.draftTokens());
        assertEquals(3_009, s.draftPairs());
        assertEquals(4, s.decodeTokens());
        assertEquals(4, s.totalTokens());
        assertEquals(4, s.logitRows());
    }

    /**
     * The drafter over a step of 8 decodes at context 500: n-gram lookup adds nothing; EAGLE adds k passes of one decoder
     * layer with the LM head, each (gpu - head) / 32 + head at contexts 501, 502, 503; a draft model k of its own forward
     * passes.
     */
    @Test
    void theDrafterAddsKPassesPricedByMethod() {
        StepShape step = decodes(8, 500, 3);
        long target = TARGET.stepTimeUs(step);
        var ngram = new SpeculativeLatency(TARGET, SpeculativeLatency.Drafter.CPU_LOOKUP, 3, 0, null, "ngram");
        assertEquals(target, ngram.stepTimeUs(step));
        var eagle = new SpeculativeLatency(TARGET, SpeculativeLatency.Drafter.DECODER_LAYER, 3, 32, null, "eagle");
        double passes = 0;
        for (int j = 1; j <= 3; j++) {
            passes += TARGET.decoderLayerPassUs(decodes(8, 500 + j, 0), 32);
        }
        assertEquals(target + Math.round(passes), eagle.stepTimeUs(step));
        double onePass = TARGET.decoderLayerPassUs(decodes(8, 501, 0), 32);
        assertTrue(onePass > TARGET.gpuUs(decodes(8, 501, 0)) / 32, "the LM head is whole, not a layer's share");
        RooflineModel small = new RooflineModel(ModelCatalog.builtIn().lookup("meta-llama/llama-2-7b-hf", "x"), H100, 1);
        var draft = new SpeculativeLatency(TARGET, SpeculativeLatency.Drafter.DRAFT_MODEL, 3, 32, small, "draft");
        double draftPasses = 0;
        for (int j = 1; j <= 3; j++) {
            draftPasses += small.gpuUs(decodes(8, 500 + j, 0));
        }
        assertEquals(target + Math.round(draftPasses), draft.stepTimeUs(step));
        assertEquals(TARGET.stepTimeUs(new StepShape()), eagle.stepTimeUs(new StepShape()), "no decode, no drafting");
    }
}
