package io.servesim.compare;

import java.util.List;

/**
 * Agreement of one metric between simulation and measurement over the joined keys
 * ({@link RankAgreement} defines each statistic; NaN where undefined).
 *
 * @param metric           metric column, e.g. {@code ttft_p99_ms}
 * @param keys             joined keys compared (n)
 * @param simRows          simulated rows averaged into those keys (e.g. keys x seeds)
 * @param realRows         measured rows averaged into those keys
 * @param spearmanRho      Spearman's rho, average ranks for ties
 * @param kendallTauB      Kendall's tau-b
 * @param pairwiseAccuracy share of key pairs ordered the same by sim and real, 0..1
 * @param mapePct          mean absolute percentage error relative to real, percent
 * @param leftOutSimKeys   joined keys left out because the simulated metric has no value ({@code axis=label, ...})
 */
record MetricComparison(String metric, int keys, int simRows, int realRows, double spearmanRho, double kendallTauB,
                        double pairwiseAccuracy, double mapePct, List<String> leftOutSimKeys) {
    MetricComparison {
        leftOutSimKeys = List.copyOf(leftOutSimKeys);
    }
}
