package io.servesim.metrics;

/**
 * Speculative decoding over every instance of a run, vLLM's {@code SpecDecodingStats} summed
 * ({@code vllm/v1/spec_decode/metrics.py}); all zero without speculative decoding.
 *
 * @param verifySteps    verify steps that held draft tokens, one per request and step ({@code num_drafts})
 * @param draftTokens    draft tokens verified ({@code num_draft_tokens})
 * @param acceptedTokens draft tokens accepted ({@code num_accepted_tokens})
 */
public record SpecDecodeSummary(long verifySteps, long draftTokens, long acceptedTokens) {
    /** No speculative decoding. */
    public static final SpecDecodeSummary NONE = new SpecDecodeSummary(0, 0, 0);

    /** Accepted / draft tokens (vLLM's draft acceptance rate); NaN when nothing was drafted. */
    public double acceptanceRate() {
        return draftTokens == 0 ? Double.NaN : (double) acceptedTokens / draftTokens;
    }

    /**
     * Tokens a verify step gave its request on average, the bonus token included: 1 + accepted / verify steps (vLLM's
     * mean acceptance length); NaN when no step verified drafts.
     */
    public double meanAcceptedLength() {
        return verifySteps == 0 ? Double.NaN : 1 + (double) acceptedTokens / verifySteps;
    }
}
