package io.servesim.run;

import io.servesim.latency.LatencyModel;
import io.servesim.latency.StepShape;

/**
 * Test double with the blackbox model's shape and hand-picked round coefficients, so expected
 * timings in oracle tests can be derived by hand: step = b0 + b1 x prefill + b2 x decode,
 * queueing = a0 + a1 x input, per-token processing = a2.
 */
public record LinearLatency(long a0, long a1, long a2, long b0, long b1, long b2) implements LatencyModel {
    public static LinearLatency steps(long b0, long b1, long b2) {
        return new LinearLatency(0, 0, 0, b0, b1, b2);
    }

    @Override
    public String name() {
        return "linear-test";
    }

    @Override
    public String describe() {
        return toString();
    }

    @Override
    public long stepTimeUs(StepShape s) {
        return Math.max(1, b0 + b1 * s.prefillTokens() + b2 * s.decodeTokens());
    }

    @Override
    public long queueingDelayUs(int inputTokens) {
        return a0 + a1 * inputTokens;
    }

    @Override
    public long outputTokenProcessingUs() {
        return a2;
    }
}
