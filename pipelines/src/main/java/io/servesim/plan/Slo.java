package io.servesim.plan;

import io.servesim.config.ConfigException;
import io.servesim.metrics.Column;
import io.servesim.metrics.MetricCatalog;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * One service-level objective of a plan: a bound on one metric of a run's {@code cells/} row ({@link MetricCatalog}), met
 * by the run as a whole. A latency metric ({@code ttft_p99_ms}, {@code tpot_p90_ms}, any column in milliseconds) is
 * bounded from above ({@code ttft_p99_ms <= 500}); {@code slo_attainment} (the share of requests meeting their SLO
 * class's targets) from below ({@code slo_attainment >= 0.99}). A metric the run has no value of (no request
 * qualified) does not meet its bound.
 *
 * @param metric the {@code cells/} column
 * @param bound  the bound, in the metric's unit
 * @param atMost whether the value must be at most the bound (latencies) rather than at least (attainment)
 */
public record Slo(String metric, double bound, boolean atMost) {
    /** The one metric bounded from below. */
    public static final String ATTAINMENT = "slo_attainment";

    /** The metrics an SLO may bound: every {@code cells/} column in milliseconds, and {@code slo_attainment}. */
    public static List<String> metrics() {
        List<String> out = new ArrayList<>();
        for (Column c : MetricCatalog.COLUMNS) {
            if (c.unit().equals("ms") || c.name().equals(ATTAINMENT)) {
                out.add(c.name());
            }
        }
        return out;
    }

    /**
     * The SLO bounding {@code metric} by {@code bound}, named at {@code path} ({@code slo[0].ttft_p99_ms},
     * {@code --slo}) in the error when the metric is not one of {@link #metrics()} or the bound is out of range.
     */
    public static Slo of(String metric, double bound, String path) {
        if (!metrics().contains(metric)) {
            throw new ConfigException(path, "unknown metric '" + metric + "'; an SLO bounds one of: " + String.join(", ", metrics()));
        }
        boolean atMost = !metric.equals(ATTAINMENT);
        if (atMost ? !(bound > 0 && Double.isFinite(bound)) : !(bound > 0 && bound <= 1)) {
            throw new ConfigException(path, atMost ? "must be a number of milliseconds > 0, got " + bound
                    : "must be a fraction in (0, 1], got " + bound);
        }
        return new Slo(metric, bound, atMost);
    }

    /** Whether {@code value} (null: the run has none) meets the bound. */
    public boolean met(Double value) {
        return value != null && (atMost ? value <= bound : value >= bound);
    }

    /**
     * How comfortably {@code value} meets the bound: bound / value for an upper bound, value / bound for a lower one; at
     * least 1 when met, 0 without a value. A slack of 0.8 on {@code ttft_p99_ms <= 500} is a p99 of 625 ms.
     */
    public double slack(Double value) {
        if (value == null) {
            return 0;
        }
        if (atMost) {
            return value <= 0 ? Double.POSITIVE_INFINITY : bound / value;
        }
        return value / bound;
    }

    /** {@code ttft_p99_ms <= 500}. */
    @Override
    public String toString() {
        return metric + (atMost ? " <= " : " >= ") + BigDecimal.valueOf(bound).stripTrailingZeros().toPlainString();
    }
}
