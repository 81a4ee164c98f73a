package io.servesim.compare;

import org.apache.commons.math3.stat.correlation.KendallsCorrelation;
import org.apache.commons.math3.stat.correlation.SpearmansCorrelation;

/**
 * How well simulated values of one metric agree with measured ones over the same n keys (sweep cells
 * joined with measurements). {@code sim[i]} and {@code real[i]} belong to the same key. A statistic
 * that is undefined is {@link Double#NaN}: every one for n &lt; 2; the correlations when one side is
 * constant; all three rank statistics when the measured side is constant (there is no order to agree
 * with, so an all-tied measurement is "n/a", never a score of 0); MAPE when a measured value is 0.
 */
final class RankAgreement {
    private RankAgreement() {
    }

    /**
     * Spearman's rank correlation rho: Pearson's correlation of the ranks, tied values getting the
     * average of the ranks they span (commons-math3 {@link SpearmansCorrelation} with its default
     * {@code NaturalRanking}: ties AVERAGE). Without ties it equals {@code 1 - 6 sum(d^2) / (n (n^2 - 1))}.
     */
    static double spearmanRho(double[] sim, double[] real) {
        return sim.length < 2 || allTied(real) ? Double.NaN : new SpearmansCorrelation().correlation(sim, real);
    }

    /**
     * Kendall's tau-b: {@code (C - D) / sqrt((C + D + Ts) (C + D + Tr))} over the n (n - 1) / 2 pairs, with
     * C concordant pairs, D discordant pairs, Ts pairs tied only in sim and Tr pairs tied only in real
     * (pairs tied on both sides count nowhere). Kendall (1945), "The treatment of ties in ranking
     * problems"; computed by commons-math3 {@link KendallsCorrelation} (Knight's O(n log n) algorithm).
     */
    static double kendallTauB(double[] sim, double[] real) {
        return sim.length < 2 || allTied(real) ? Double.NaN : new KendallsCorrelation().correlation(sim, real);
    }

    /**
     * Share of the n (n - 1) / 2 pairs of keys that sim and real order the same way: a pair agrees when
     * {@code signum(sim[i] - sim[j]) == signum(real[i] - real[j])}. So a pair tied on both sides agrees,
     * and a pair tied on one side only disagrees (the simulator predicts an order the measurement does
     * not show, or misses one it shows). Without ties it is {@code C / (C + D) = (tau + 1) / 2}. Undefined
     * (NaN) when every measured value is the same.
     */
    static double pairwiseAccuracy(double[] sim, double[] real) {
        int n = sim.length;
        if (n < 2 || allTied(real)) {
            return Double.NaN;
        }
        long agree = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (Math.signum(sim[i] - sim[j]) == Math.signum(real[i] - real[j])) {
                    agree++;
                }
            }
        }
        return agree / (n * (n - 1) / 2.0);
    }

    /** True when every value equals the first (no pair is ordered). */
    private static boolean allTied(double[] values) {
        for (double v : values) {
            if (v != values[0]) {
                return false;
            }
        }
        return true;
    }

    /** Mean absolute percentage error relative to real: {@code 100 / n * sum |sim - real| / |real|}. */
    static double mapePct(double[] sim, double[] real) {
        if (sim.length == 0) {
            return Double.NaN;
        }
        double sum = 0;
        for (int i = 0; i < sim.length; i++) {
            if (real[i] == 0) {
                return Double.NaN;
            }
            sum += Math.abs(sim[i] - real[i]) / Math.abs(real[i]);
        }
        return 100 * sum / sim.length;
    }
}
