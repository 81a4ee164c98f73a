package io.servesim.latency;

import java.util.Locale;

/**
 * A target model's latency with speculative decoding's drafter priced in each step. The verify pass is the target's
 * own step over the drafts as extra query tokens ({@link StepShape#addVerify}; each latency model prices them with its
 * token terms). The drafter runs in the same step, after the target's forward pass, k sequential passes over the step's
 * decoding sequences, as vLLM's proposers do ({@code vllm/v1/spec_decode/eagle.py propose}: one forward pass of the
 * draft per speculative token, every request of the batch drafting; docs {@code features/spec_decode.md}); the drafts
 * a step proposes are the ones its requests verify in their next step:
 * <ul>
 *   <li>{@link Drafter#DRAFT_MODEL}: a smaller model on the same GPUs at the same TP; each pass is its forward pass
 *       ({@link LatencyModel#forwardPassUs}, its own roofline) over one token per sequence at the sequence's
 *       context. Its weights and KV come out of the target's KV cache (sized by the run plan).</li>
 *   <li>{@link Drafter#DECODER_LAYER}: an EAGLE head (Li et al. 2024, EAGLE, Sec. 3.1: the embedding, one
 *       fully-connected layer and one decoder layer over the target's features, the target's LM head shared) or an MTP
 *       module (DeepSeek-V3 technical report, Sec. 2.2: one transformer block and a projection, the output head shared;
 *       vLLM reruns it for each of k drafts): each pass is one decoder layer of the target with its LM head
 *       ({@link LatencyModel#decoderLayerPassUs}).</li>
 *   <li>{@link Drafter#CPU_LOOKUP}: n-gram prompt lookup costs the GPU nothing; vLLM runs it on the CPU
 *       ({@code vllm/v1/spec_decode/ngram_proposer.py}: a Numba-compiled longest-suffix match over each request's
 *       tokens, threaded over requests), between steps. No measured per-request cost is published for it (vLLM's docs
 *       and blog give speed-ups only), so it is priced at zero, an underestimate of its CPU time.</li>
 * </ul>
 * The drafter's passes add to the step's time whatever the target's CPU/GPU overlap: they are GPU work after the
 * target's and before the step's output is ready.
 */
public final class SpeculativeLatency implements LatencyModel {
    /** How the drafts are proposed, as priced. */
    public enum Drafter { DRAFT_MODEL, DECODER_LAYER, CPU_LOOKUP }

    private final LatencyModel target;
    private final Drafter drafter;
    private final int k;
    private final int layers;
    private final LatencyModel draftModel;
    private final String label;
    /** The drafter's passes over the step's decoding sequences (reused). */
    private final StepShape passes = new StepShape();

    /**
     * @param target     the target's latency model (verify passes)
     * @param drafter    how drafts are proposed
     * @param k          draft tokens per step (passes of the drafter)
     * @param layers     the target's decoder layers (a {@link Drafter#DECODER_LAYER} pass is one of them)
     * @param draftModel the draft model's latency model ({@link Drafter#DRAFT_MODEL}), else null
     * @param label      what proposes the drafts, for {@link #describe()}
     */
    public SpeculativeLatency(LatencyModel target, Drafter drafter, int k, int layers, LatencyModel draftModel, String label) {
        if (k < 1 || (drafter == Drafter.DRAFT_MODEL) != (draftModel != null) || drafter == Drafter.DECODER_LAYER && layers < 1) {
            throw new IllegalArgumentException("invalid drafter " + drafter + " k=" + k + " layers=" + layers);
        }
        this.target = target;
        this.drafter = drafter;
        this.k = k;
        this.layers = layers;
        this.draftModel = draftModel;
        this.label = label;
    }

    @Override
    public String name() {
        return target.name();
    }

    @Override
    public String describe() {
        return target.describe() + String.format(Locale.ROOT, "; speculative decoding: %s, %d draft tokens per step", label, k);
    }

    @Override
    public String calibrationNote() {
        return target.calibrationNote();
    }

    @Override
    public long stepTimeUs(StepShape step) {
        return Math.max(1L, target.stepTimeUs(step) + Math.round(drafterUs(step)));
    }

    @Override
    public long queueingDelayUs(int inputTokens) {
        return target.queueingDelayUs(inputTokens);
    }

    @Override
    public long outputTokenProcessingUs() {
        return target.outputTokenProcessingUs();
    }

    /** GPU time of the drafter's k passes over {@code step}'s decoding sequences (0 for n-gram lookup or none decoding). */
    double drafterUs(StepShape step) {
        int n = step.decodeSeqs();
        if (drafter == Drafter.CPU_LOOKUP || n == 0) {
            return 0;
        }
        passes.clear();
        for (int i = 0; i < n; i++) {
            passes.addDecode(step.decodeContextTokens(i) + 1); // drafting starts after the token this step samples
        }
        double us = 0;
        for (int j = 0; j < k; j++) {
            if (j > 0) {
                passes.advanceDecodes();
            }
            us += drafter == Drafter.DRAFT_MODEL ? draftModel.forwardPassUs(passes) : target.decoderLayerPassUs(passes, layers);
        }
        return us;
    }
}
