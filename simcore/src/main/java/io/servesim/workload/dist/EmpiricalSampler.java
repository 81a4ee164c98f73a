package io.servesim.workload.dist;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A discrete distribution given by values and weights (a PMF, inline or from a CSV file): one
 * uniform per draw, inverse CDF by binary search (as BLIS {@code EmpiricalPDFSampler}). The
 * binder requires the weights to sum to 1 (within 1e-6); the CDF divides by their exact sum so its
 * last step is exactly 1.
 */
public final class EmpiricalSampler implements Sampler {
    private final double[] values;
    private final double[] cdf;

    private EmpiricalSampler(double[] values, double[] cdf) {
        this.values = values;
        this.cdf = cdf;
    }

    /**
     * Builds the sampler; {@code weights[i] >= 0} is the relative probability of {@code values[i]}.
     * Zero-weight values are dropped.
     *
     * @throws IllegalArgumentException if the weights do not sum to a positive finite number
     */
    public static EmpiricalSampler of(double[] values, double[] weights) {
        if (values.length != weights.length) {
            throw new IllegalArgumentException("values and weights differ in size");
        }
        Integer[] order = new Integer[values.length];
        double total = 0;
        for (int i = 0; i < values.length; i++) {
            order[i] = i;
            if (!(weights[i] >= 0) || Double.isInfinite(weights[i])) {
                throw new IllegalArgumentException("weight of " + values[i] + " must be a finite number >= 0");
            }
            total += weights[i];
        }
        if (!(total > 0) || Double.isInfinite(total)) {
            throw new IllegalArgumentException("weights must sum to a positive finite number, got " + total);
        }
        Arrays.sort(order, (a, b) -> Double.compare(values[a], values[b]));
        double[] v = new double[values.length];
        double[] c = new double[values.length];
        int n = 0;
        double cumulative = 0;
        for (int i : order) {
            if (weights[i] > 0) {
                cumulative += weights[i] / total;
                v[n] = values[i];
                c[n] = cumulative;
                n++;
            }
        }
        c[n - 1] = 1.0;
        return new EmpiricalSampler(Arrays.copyOf(v, n), Arrays.copyOf(c, n));
    }

    /** The largest value drawn with a positive weight. */
    public double largest() {
        return values[values.length - 1];
    }

    @Override
    public double draw(SplittableRandom rng) {
        double u = rng.nextDouble();
        int i = Arrays.binarySearch(cdf, u);
        // The first index whose cumulative probability exceeds u.
        int idx = i >= 0 ? i + 1 : -i - 1;
        return values[Math.min(idx, values.length - 1)];
    }
}
