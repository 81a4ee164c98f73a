package io.servesim.metrics;

import java.util.function.ToLongFunction;

/**
 * How a fitness weight scores a column: a number in [0, 1], 1 best, so that weights compare like with like
 * ({@link FitnessWeights}). The rules follow BLIS's fitness (inference-sim/inference-sim @ 02ed0be2,
 * {@code sim/cluster/metrics.go}, {@code extractMetric}): a quantity better when lower is scored
 * {@code 1 / (1 + value / reference)}, 1 at zero and 0.5 at the reference, as BLIS scores latencies; a fraction is taken
 * as it is (or its complement when lower is better); a rate served is taken over the rate offered (at most 1), because
 * an open-loop workload fixes the offered rate and the share of it served is what a policy controls (BLIS scores throughput as
 * {@code value / (value + 100 req/s)}, which depends on how much traffic the workload offers).
 *
 * @param rule   the rule in words, for the metric reference and the fitness key's help
 * @param scorer the rule: the column's value (NaN when undefined) and its run to the score
 */
public record Normalisation(String rule, Scorer scorer) {
    /** Scores a column's value in its run. */
    @FunctionalInterface
    public interface Scorer {
        double score(double value, RunSummary run);
    }

    /** The score of {@code value} in {@code run}; NaN when the value is undefined. */
    public double score(double value, RunSummary run) {
        return scorer.score(value, run);
    }

    /** A fraction in [0, 1] that is better when higher, taken as it is. */
    public static Normalisation asIs() {
        return new Normalisation("as it is (a fraction, 1 best)", (v, s) -> v);
    }

    /** A fraction in [0, 1] that is better when lower: 1 - value. */
    public static Normalisation complement() {
        return new Normalisation("1 - value (a fraction, 0 best)", (v, s) -> 1 - v);
    }

    /** A quantity better when lower: {@code 1 / (1 + value / reference)}, 0.5 at {@code reference} {@code unit}. */
    public static Normalisation inverse(double reference, String unit) {
        String ref = reference == Math.rint(reference) ? String.valueOf((long) reference) : String.valueOf(reference);
        return new Normalisation("1 / (1 + value / " + ref + " " + unit + "): 1 at 0, 0.5 at " + ref + " " + unit,
                (v, s) -> Double.isNaN(v) ? Double.NaN : 1 / (1 + v / reference));
    }

    /**
     * A rate served (per second over the run) taken over the rate offered, {@code offered_rps} (injected / the arrival
     * window), at most 1: a run that serves everything as fast as it arrives scores about 1 (the last requests' latency
     * past the window lowers it a little), an overloaded one, still draining its backlog long after the last arrival,
     * scores the share of the offered rate it achieved. When every request arrives at one instant there is no offered
     * rate, and the score is {@code served / injected} ({@code what} names the served requests).
     */
    public static Normalisation overOffered(ToLongFunction<RunSummary> served, String what) {
        return new Normalisation("over the offered rate offered_rps (injected / arrival window), at most 1; with every"
                + " request arriving at once, " + what + " / injected", (v, s) -> {
                    double offered = s.number("offered_rps");
                    return offered > 0 ? Math.min(1, v / offered)
                            : served.applyAsLong(s) / (double) Math.max(1, s.count("injected"));
                });
    }
}
