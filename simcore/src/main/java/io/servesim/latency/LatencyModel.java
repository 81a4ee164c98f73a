package io.servesim.latency;

/**
 * Predicts how long an engine step takes on the GPU, plus the two CPU-side delays of the BLIS
 * blackbox model (queueing before the wait queue, per-output-token processing). Implementations
 * are pure functions of their inputs (no state, no randomness), so runs are deterministic.
 *
 * <p>Contract (checked over every implementation by {@code LatencyModelContractTest}): step time is
 * at least 1 us, is non-decreasing in prefill tokens, decode sequences and decode context, and the
 * other delays are never negative.
 */
public interface LatencyModel {
    /** Short name: the name of the concrete {@link LatencyKind} that builds it. */
    String name();

    /** One line saying which model, hardware and coefficients are in use (shown in summaries). */
    String describe();

    /**
     * Empty when the model's numbers come from measurements of the GPU it runs on (trained or calibrated
     * coefficients, a measured profile, roofline constants fitted with that GPU's data); otherwise one
     * sentence saying that its latency is uncalibrated and why (shown in summaries as
     * {@code latency_calibration_note}).
     */
    default String calibrationNote() {
        return "";
    }

    /** GPU time of one step computing {@code step}, in microseconds; at least 1. */
    long stepTimeUs(StepShape step);

    /**
     * GPU time of this model's forward pass over {@code step}, without the engine's per-step CPU work: what a draft
     * model's pass costs when it runs inside another engine's step ({@link SpeculativeLatency}). By default the step
     * time, for models that do not separate the two.
     */
    default double forwardPassUs(StepShape step) {
        return stepTimeUs(step);
    }

    /**
     * GPU time of one of this model's {@code layers} decoder layers over {@code step}, with its LM head: one pass of an
     * EAGLE head or an MTP module, which is one decoder layer that reuses the target's LM head
     * ({@link SpeculativeLatency}). By default one layer's share of the forward pass, head included.
     */
    default double decoderLayerPassUs(StepShape step, int layers) {
        return forwardPassUs(step) / layers;
    }

    /** Delay between arrival at the instance and entry into its wait queue (tokenisation, API server). */
    default long queueingDelayUs(int inputTokens) {
        return 0;
    }

    /** Per-output-token processing time (detokenise, stream) added to TTFT and each ITL; does not block the GPU. */
    default long outputTokenProcessingUs() {
        return 0;
    }
}
