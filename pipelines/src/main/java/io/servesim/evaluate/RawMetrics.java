package io.servesim.evaluate;

import io.servesim.metrics.Column;
import io.servesim.metrics.MetricCatalog;
import io.servesim.metrics.RunSummary;
import io.servesim.metrics.SummaryJson;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A run's raw metrics for a search loop: every column of the metric catalog under its catalog name, the same values a
 * sweep's {@code cells/} row of the run holds ({@link MetricCatalog#COLUMNS}), and {@code by_slo_class}, each SLO
 * class's counts, attainment and TTFT, TPOT and E2E distributions as the run summary JSON has them. So a search sees
 * everything a policy changes: latency and throughput, SLO attainment and goodput, fairness, prefix-cache hits per KV
 * tier and the tiers' transfers, preemptions and rejections, the autoscaler's scale-ups and -downs, oscillations,
 * replica-seconds and cost, and P/D transfers and goodput per GPU. It covers the fields of the BLIS macro plan's G.3
 * {@code RawMetrics} (inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}:
 * latency per SLO class, throughput, SLO attainment, fairness, cache hit rate, preemption rate, scale events and
 * replica-seconds, failure-mode counts) by the catalog's names.
 *
 * @param summary the run's aggregates
 */
public record RawMetrics(RunSummary summary) {
    /** Every column (an undefined statistic null), then {@code by_slo_class}. */
    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Column c : MetricCatalog.COLUMNS) {
            m.put(c.name(), c.rowValue(summary));
        }
        SummaryJson.Breakdown byClass = SummaryJson.breakdown("by_slo_class");
        m.put(byClass.key(), byClass.value().apply(summary));
        return m;
    }
}
