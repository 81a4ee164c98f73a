package io.servesim.evaluate;

import io.servesim.metrics.GroupSummary;
import io.servesim.metrics.RunSummary;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A run's raw metrics for a search loop, after the BLIS macro plan (G.3 {@code RawMetrics}:
 * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}):
 * latency distributions (ms) overall and per SLO class, throughput, SLO attainment per class, fairness,
 * cache hit rate, preemption rate and failure-mode counts.
 * G.3's scale fields (scale-up/down counts, replica-seconds, oscillations) are absent: the cluster
 * has no autoscaler here.
 *
 * @param summary the run's aggregates
 */
public record RawMetrics(RunSummary summary) {
    /** G.3's fields under snake_case keys; NaN (an empty sample) renders as null. */
    Map<String, Object> toMap() {
        RunSummary s = summary;
        var c = s.cluster();
        Map<String, Object> ttft = new LinkedHashMap<>();
        Map<String, Object> tpot = new LinkedHashMap<>();
        Map<String, Object> e2e = new LinkedHashMap<>();
        Map<String, Object> slo = new LinkedHashMap<>();
        ttft.put("all", s.ttftMs().toMap());
        tpot.put("all", s.tpotMs().toMap());
        e2e.put("all", s.e2eMs().toMap());
        slo.put("all", c.sloAttainment());
        for (Map.Entry<String, GroupSummary> e : c.bySloClass().entrySet()) {
            ttft.put(e.getKey(), e.getValue().ttftMs().toMap());
            tpot.put(e.getKey(), e.getValue().tpotMs().toMap());
            e2e.put(e.getKey(), e.getValue().e2eMs().toMap());
            slo.put(e.getKey(), e.getValue().sloAttainment());
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ttft_ms", ttft);
        m.put("tpot_ms", tpot);
        m.put("e2e_ms", e2e);
        m.put("requests_per_sec", s.throughputRps());
        m.put("tokens_per_sec", s.outputTokensPerS());
        m.put("slo_attainment", slo);
        m.put("jain_fairness_index", c.jainFairness());
        m.put("cache_hit_rate", s.prefixHitRate());
        m.put("preemption_rate", preemptionRate());
        m.put("rejection_rate", rejectionRate());
        m.put("priority_inversions", c.priorityInversions());
        m.put("hol_blocking_events", c.headOfLineBlocks());
        return m;
    }

    /** Preemptions per injected request. */
    double preemptionRate() {
        return (double) summary.preemptions() / Math.max(1, summary.injected());
    }

    /** Rejected share of injected requests. */
    double rejectionRate() {
        return (double) summary.rejected() / Math.max(1, summary.injected());
    }
}
