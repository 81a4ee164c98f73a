package io.servesim.workload.arrival;

import io.servesim.workload.dist.Samplers;
import java.util.SplittableRandom;

/**
 * inference-perf's constant load over one stage (kubernetes-sigs/inference-perf @ 7de5ef2e,
 * {@code inference_perf/loadgen/load_timer.py} {@code ConstantLoadTimer.start_timer}): n exponential gaps scaled so they
 * sum to the stage's duration d, the k-th request sent at start + d (E_1 + ... + E_k) / (E_1 + ... + E_n). Those
 * fractions are the order statistics of n - 1 uniforms on (0, 1) followed by 1, so they are drawn one at a time, in
 * order, without the n gaps in memory: X_1 = 1 - U^(1/(n-1)), X_k = 1 - (1 - X_(k-1)) U^(1/(n-k)), X_n = 1. Stateful:
 * one instance per client and stage; after n requests it gives +infinity (the stage has no more).
 */
final class SpreadProcess implements ArrivalProcess {
    private final double startUs;
    private final double durationUs;
    private final long n;
    private long k;
    private double x;

    SpreadProcess(long startUs, long durationUs, long n) {
        this.startUs = startUs;
        this.durationUs = durationUs;
        this.n = n;
    }

    @Override
    public double nextUs(double afterUs, SplittableRandom rng) {
        if (k >= n) {
            return Double.POSITIVE_INFINITY;
        }
        k++;
        if (k == n) {
            return startUs + durationUs;
        }
        x = 1 - (1 - x) * Math.pow(Samplers.openUnit(rng), 1.0 / (n - k));
        return startUs + durationUs * x;
    }
}
