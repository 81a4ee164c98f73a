package io.servesim.metrics;

/**
 * One column of a sweep's {@code cells/} rows and one raw metric of {@code evaluate}, by the same name: a scalar metric
 * of the catalog, or one statistic of a distribution ({@code ttft_p99_ms} is the p99 of {@code ttft_ms}). Unit,
 * aggregation and fitness rule are its metric's; a fitness weight names a column.
 *
 * @param name   the column's name
 * @param metric the metric it belongs to
 * @param stat   the statistic of a distribution it holds, or null for a scalar metric
 */
public record Column(String name, Metric metric, Metric.Stat stat) {
    /** The value's kind: a distribution's statistic is an {@link Metric.Kind#OPTIONAL_DOUBLE}. */
    public Metric.Kind kind() {
        return stat == null ? metric.kind() : Metric.Kind.OPTIONAL_DOUBLE;
    }

    public String unit() {
        return metric.unit();
    }

    public Metric.Aggregation aggregation() {
        return metric.aggregation();
    }

    /** How a fitness weight scores this column, or null when it is not a fitness key. */
    public Normalisation fitness() {
        return metric.fitness();
    }

    /** The description: the metric's, or for a statistic the statistic of the distribution's noun phrase. */
    public String doc() {
        if (stat == null) {
            return metric.doc();
        }
        return stat.phrase() + " " + metric.doc() + "; null when " + metric.emptyWhen() + ".";
    }

    /** The value in {@code s} as the summary holds it (NaN for an undefined statistic). */
    public Object value(RunSummary s) {
        return stat == null ? metric.value(s) : stat.of((Distribution) metric.value(s));
    }

    /** The value to store in a row or print as a raw metric: as read, except that an undefined number is null. */
    public Object rowValue(RunSummary s) {
        Object v = value(s);
        return kind() == Metric.Kind.OPTIONAL_DOUBLE && v instanceof Double d && !Double.isFinite(d) ? null : v;
    }

    /** The value as a number (NaN when undefined), for fitness; text and flags are not numbers. */
    public double number(RunSummary s) {
        Object v = value(s);
        if (!(v instanceof Number n)) {
            throw new IllegalStateException(name + " is not a number");
        }
        return n.doubleValue();
    }
}
