package io.servesim.metrics;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Summary statistics of one metric in milliseconds (exact; see {@link Percentiles} for the rule).
 */
public record Distribution(int count, double mean, double min, double p50, double p90, double p95, double p99,
                           double max) {
    public static final Distribution EMPTY = new Distribution(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            Double.NaN, Double.NaN, Double.NaN);

    /** From a sample in microseconds, reported in milliseconds. */
    public static Distribution ofMicros(Percentiles p) {
        if (p.count() == 0) {
            return EMPTY;
        }
        return new Distribution(p.count(), p.mean() / 1e3, p.min() / 1e3, p.percentile(50) / 1e3,
                p.percentile(90) / 1e3, p.percentile(95) / 1e3, p.percentile(99) / 1e3, p.max() / 1e3);
    }

    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", count);
        m.put("mean", mean);
        m.put("min", min);
        m.put("p50", p50);
        m.put("p90", p90);
        m.put("p95", p95);
        m.put("p99", p99);
        m.put("max", max);
        return m;
    }
}
