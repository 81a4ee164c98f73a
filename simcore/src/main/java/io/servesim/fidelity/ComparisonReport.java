package io.servesim.fidelity;

import io.servesim.metrics.Percentiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Real against simulated latency statistics of a replay, printed the way the peer simulators print
 * theirs (casys-kaist/LLMServingSim {@code bench/core/plots.py write_summary}): per metric the mean
 * and the p50, p90, p95 and p99 (NumPy's linear interpolation, {@link Percentiles}) of both sides,
 * and {@code diff% = (sim - real) / real x 100}, not given ("n/a", NaN) where the measured value is under
 * {@link #MIN_RELATIVE_MS}: a request vLLM schedules at once has a queue time of a few microseconds, and a percentage
 * of that says nothing. A statistic covers the requests that have the
 * metric on both sides (TPOT needs two output tokens; a request the simulator did not complete
 * counts on neither side).
 *
 * @param lines     one line per (metric, statistic)
 * @param compared  requests on both sides
 * @param missing   requests the simulator did not complete
 */
public record ComparisonReport(List<Line> lines, int compared, int missing) {
    /** Measured values below this (ms) get no relative difference. */
    public static final double MIN_RELATIVE_MS = 1.0;
    /** Statistics reported for each metric. */
    public static final List<String> STATISTICS = List.of("mean", "p50", "p90", "p95", "p99");

    /**
     * One statistic of one metric.
     *
     * @param metric    TTFT, TPOT, E2E or queueing
     * @param statistic mean, p50, p90, p95 or p99
     * @param realMs    measured value, ms
     * @param simMs     simulated value, ms
     */
    public record Line(String metric, String statistic, double realMs, double simMs) {
        /** (sim - real) / real in percent; NaN when the measured value is under {@link #MIN_RELATIVE_MS}. */
        public double diffPercent() {
            return realMs < MIN_RELATIVE_MS ? Double.NaN : (simMs - realMs) / realMs * 100;
        }
    }

    public ComparisonReport {
        lines = List.copyOf(lines);
    }

    /** The report over {@code rows}. */
    public static ComparisonReport of(List<ReplayRow> rows) {
        List<Line> lines = new ArrayList<>();
        add(lines, rows, "TTFT", ReplayRow::realTtftMs, ReplayRow::simTtftMs);
        add(lines, rows, "TPOT", ReplayRow::realTpotMs, ReplayRow::simTpotMs);
        add(lines, rows, "E2E", ReplayRow::realE2eMs, ReplayRow::simE2eMs);
        add(lines, rows, "queueing", ReplayRow::realQueueingMs, ReplayRow::simQueueingMs);
        int missing = (int) rows.stream().filter(r -> Double.isNaN(r.simE2eMs())).count();
        return new ComparisonReport(lines, rows.size() - missing, missing);
    }

    /** The line of {@code metric} and {@code statistic}. */
    public Line line(String metric, String statistic) {
        return lines.stream().filter(l -> l.metric().equals(metric) && l.statistic().equals(statistic)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no line " + metric + " " + statistic));
    }

    /** The table, one line per statistic. */
    public String render() {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-15s %10s %10s %8s%n", "metric", "real", "sim", "diff%"));
        String previous = null;
        boolean unrated = false;
        for (Line l : lines) {
            if (previous != null && !previous.equals(l.metric())) {
                sb.append('\n');
            }
            previous = l.metric();
            double diff = l.diffPercent();
            unrated |= Double.isNaN(diff);
            sb.append(String.format(Locale.ROOT, "%-15s %10.1f %10.1f %8s%n", l.metric() + " " + l.statistic(),
                    l.realMs(), l.simMs(), Double.isNaN(diff) ? "n/a" : String.format(Locale.ROOT, "%+.1f%%", diff)));
        }
        if (unrated) {
            sb.append(String.format(Locale.ROOT, "n/a: the measured value is under %.0f ms, of which a percentage says nothing%n",
                    MIN_RELATIVE_MS));
        }
        return sb.toString();
    }

    private static void add(List<Line> lines, List<ReplayRow> rows, String metric, ToDoubleFunction<ReplayRow> real,
                            ToDoubleFunction<ReplayRow> sim) {
        List<double[]> pairs = new ArrayList<>();
        for (ReplayRow r : rows) {
            double a = real.applyAsDouble(r);
            double b = sim.applyAsDouble(r);
            if (!Double.isNaN(a) && !Double.isNaN(b)) {
                pairs.add(new double[] {a, b});
            }
        }
        Percentiles realStats = Percentiles.of(pairs.stream().mapToDouble(p -> p[0]).toArray());
        Percentiles simStats = Percentiles.of(pairs.stream().mapToDouble(p -> p[1]).toArray());
        lines.add(new Line(metric, "mean", realStats.mean(), simStats.mean()));
        for (String p : STATISTICS.subList(1, STATISTICS.size())) {
            double q = Double.parseDouble(p.substring(1));
            lines.add(new Line(metric, p, realStats.percentile(q), simStats.percentile(q)));
        }
    }
}
