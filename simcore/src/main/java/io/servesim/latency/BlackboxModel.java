package io.servesim.latency;

import java.util.Locale;

/**
 * BLIS's blackbox latency model (inference-sim/inference-sim, {@code docs} "Configuration:
 * Coefficient Calibration"; coefficients fitted by linear regression on real vLLM runs):
 * <ul>
 *   <li>step time = b0 + b1 x new prefill tokens + b2 x decode tokens (us);</li>
 *   <li>queueing delay before the wait queue = a0 + a1 x input tokens (us);</li>
 *   <li>per-output-token processing = a2 (us), added to TTFT and each ITL without blocking the GPU.</li>
 * </ul>
 * Results are rounded to the nearest microsecond; the step time is at least 1 us. Coefficients must
 * be finite and non-negative (checked by {@link LatencyModels}), which keeps the model monotone.
 */
public final class BlackboxModel implements LatencyModel {
    private final BlackboxCoefficients c;
    private final String label;

    /**
     * @param coefficients trained or explicit coefficients (us)
     * @param label        where they come from, for {@link #describe()} (e.g. the model/GPU/TP triple)
     */
    public BlackboxModel(BlackboxCoefficients coefficients, String label) {
        this.c = coefficients;
        this.label = label;
    }

    public BlackboxCoefficients coefficients() {
        return c;
    }

    @Override
    public String name() {
        return "blackbox";
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT,
                "blackbox %s: step = %.1f + %.4f x prefill + %.4f x decode us; queueing = %.1f + %.4f x input us; %.1f us per output token",
                label, c.b0(), c.b1(), c.b2(), c.a0(), c.a1(), c.a2());
    }

    @Override
    public long stepTimeUs(StepShape step) {
        double us = c.b0() + c.b1() * step.prefillTokens() + c.b2() * step.decodeTokens();
        return Math.max(1L, Math.round(us));
    }

    @Override
    public long queueingDelayUs(int inputTokens) {
        return Math.max(0L, Math.round(c.a0() + c.a1() * inputTokens));
    }

    @Override
    public long outputTokenProcessingUs() {
        return Math.max(0L, Math.round(c.a2()));
    }
}
