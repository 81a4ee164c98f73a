package io.servesim.compare;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

/** The stdout table of {@code servesim compare}: where the rows came from, the join, then one line per metric. */
final class CompareReport {
    private CompareReport() {
    }

    static void print(PrintWriter out, KeyedMetrics sim, KeyedMetrics real, Comparison join, List<String> on,
                      List<MetricComparison> rows) {
        out.println("sim:  " + side(sim));
        out.println("real: " + side(real));
        out.printf(Locale.ROOT, "joined on %s: %d keys; unmatched keys: %d sim, %d real%s%n", String.join(", ", on),
                join.joined().size(), join.simOnly().size(), join.realOnly().size(),
                join.simOnly().isEmpty() && join.realOnly().isEmpty() ? "" : " (listed on stderr and in compare.parquet)");
        out.println();
        int width = Math.max("metric".length(), rows.stream().mapToInt(r -> r.metric().length()).max().orElse(0));
        out.printf(Locale.ROOT, "%-" + width + "s %5s %14s %14s %17s %10s%n", "metric", "n", "spearman_rho",
                "kendall_tau_b", "pairwise_accuracy", "mape_pct");
        for (MetricComparison r : rows) {
            out.printf(Locale.ROOT, "%-" + width + "s %5d %14s %14s %17s %10s%n", r.metric(), r.keys(),
                    fixed(r.spearmanRho(), 4), fixed(r.kendallTauB(), 4), fixed(r.pairwiseAccuracy(), 4),
                    fixed(r.mapePct(), 2));
        }
        for (MetricComparison r : rows) {
            if (r.keys() > 0 && Double.isNaN(r.mapePct())) {
                out.println("mape_pct of " + r.metric() + " is n/a: a measured value is 0, of which a percentage error"
                        + " is undefined");
            }
        }
        out.flush();
    }

    private static String side(KeyedMetrics m) {
        StringJoiner axes = new StringJoiner(", ");
        m.averagedAxes().forEach((axis, values) -> axes.add(axis + " (" + values + " values)"));
        String mean = axes.length() > 0
                ? " (a key's metrics are the mean over sim axes not in --on: " + axes + "; up to " + m.maxRowsPerKey()
                        + " rows per key)"
                : m.maxRowsPerKey() > 1
                ? " (a key's metrics are the mean over its rows, e.g. seeds: up to " + m.maxRowsPerKey() + " rows per key)"
                : "";
        return m.source() + ": " + m.rows() + " rows, " + m.keys().size() + " keys" + mean;
    }

    private static String fixed(double v, int decimals) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
