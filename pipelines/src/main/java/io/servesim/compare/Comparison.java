package io.servesim.compare;

import java.util.ArrayList;
import java.util.List;

/**
 * The inner join of simulated and measured keys ({@link KeyedMetrics}: normalised {@code --on} labels,
 * metrics averaged per key) and the keys found on one side only, then per metric the
 * {@link RankAgreement} statistics over the joined keys, in the simulated side's key order. A joined key
 * whose simulated metric has no value (NaN: a null in a cell, e.g. every request dropped) is left out of
 * that metric's statistics and named in {@link MetricComparison#leftOutSimKeys()}.
 */
final class Comparison {
    private final KeyedMetrics sim;
    private final KeyedMetrics real;
    private final List<List<String>> joined = new ArrayList<>();
    private final List<List<String>> simOnly = new ArrayList<>();
    private final List<List<String>> realOnly = new ArrayList<>();

    Comparison(KeyedMetrics sim, KeyedMetrics real) {
        this.sim = sim;
        this.real = real;
        for (List<String> key : sim.keys()) {
            (real.keys().contains(key) ? joined : simOnly).add(key);
        }
        for (List<String> key : real.keys()) {
            if (!sim.keys().contains(key)) {
                realOnly.add(key);
            }
        }
    }

    List<List<String>> joined() {
        return joined;
    }

    /** {@code axis=label, ...} of each simulated key without a measurement. */
    List<String> simOnly() {
        return simOnly.stream().map(sim::describe).toList();
    }

    /** {@code axis=label, ...} of each measured key without a simulated cell. */
    List<String> realOnly() {
        return realOnly.stream().map(real::describe).toList();
    }

    /** The statistics of metric number {@code metricIndex} (position in {@code --metrics}) named {@code metric}. */
    MetricComparison compare(int metricIndex, String metric) {
        List<List<String>> keys = new ArrayList<>();
        List<String> leftOut = new ArrayList<>();
        for (List<String> key : joined) {
            if (Double.isNaN(sim.mean(key, metricIndex))) {
                leftOut.add(sim.describe(key));
            } else {
                keys.add(key);
            }
        }
        int n = keys.size();
        double[] s = new double[n];
        double[] r = new double[n];
        int simRows = 0;
        int realRows = 0;
        for (int i = 0; i < n; i++) {
            List<String> key = keys.get(i);
            s[i] = sim.mean(key, metricIndex);
            r[i] = real.mean(key, metricIndex);
            simRows += sim.rows(key);
            realRows += real.rows(key);
        }
        return new MetricComparison(metric, n, simRows, realRows, RankAgreement.spearmanRho(s, r),
                RankAgreement.kendallTauB(s, r), RankAgreement.pairwiseAccuracy(s, r), RankAgreement.mapePct(s, r),
                leftOut);
    }
}
