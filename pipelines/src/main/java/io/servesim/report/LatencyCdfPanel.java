package io.servesim.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.metrics.Column;
import io.servesim.sweep.Dataset;
import java.sql.Array;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * CDFs of TTFT and E2E per value of the policy axis, from {@code requests/} (completed requests of every
 * cell, pooled over the other axes and seeds). The page does not hold request rows: DuckDB computes
 * {@link #PROBABILITIES} quantiles of each group over all its rows, and the curve steps through them, so a
 * sweep of millions of requests draws as fast as one of a thousand and the tails are exact.
 */
final class LatencyCdfPanel implements Panel {
    @Override
    public String id() {
        return "cdf";
    }

    @Override
    public List<Column> metrics() {
        return List.of();
    }

    /** 0, 0.01, ..., 1 and the tail points 0.995 and 0.999: 103 quantiles per curve. */
    static final double[] PROBABILITIES = probabilities();

    @Override
    public Optional<ObjectNode> section(ReportContext ctx) throws SQLException {
        if (!ctx.has(Dataset.REQUESTS, "ttft_us", "e2e_us", "status") || ctx.rows(Dataset.REQUESTS) == 0) {
            return Optional.empty();
        }
        SweepAxis policy = ctx.axes().policy();
        ObjectNode section = Charts.section(id(), "Latency CDFs" + (policy == null ? "" : " per " + policy.name()),
                "Completed requests of all cells" + (policy == null ? "" : " with each " + policy.name())
                        + ", pooled over the other axes and seeds. Each curve steps through " + PROBABILITIES.length
                        + " exact quantiles (every percentile, and p99.5 and p99.9) that DuckDB computes over all rows:"
                        + " the page holds no request rows.");
        ArrayNode charts = (ArrayNode) section.get("charts");
        charts.add(cdf(ctx, policy, "ttft_us", "TTFT CDF", "TTFT (ms)"));
        charts.add(cdf(ctx, policy, "e2e_us", "E2E CDF", "E2E latency (ms)"));
        return Optional.of(section);
    }

    /** A CDF chart of {@code column} (microseconds, drawn in ms) of {@code dataset}'s completed rows per policy. */
    static ObjectNode cdf(ReportContext ctx, Dataset dataset, SweepAxis policy, String column, String title, String xName,
                          String where) throws SQLException {
        ObjectNode c = Charts.chart("cdf", title, xName, "fraction");
        ArrayNode series = c.putArray("series");
        String sql = "SELECT " + ReportContext.label(policy) + " AS g, quantile_cont(" + Duck.quote(column) + " / 1000.0, "
                + Charts.numbers(PROBABILITIES) + ") FROM " + ctx.from(dataset) + " WHERE " + where + " GROUP BY g";
        List<String> order = policy == null ? List.of("all") : policy.labels();
        List<Object[]> rows = ctx.duck().rows(sql);
        rows.sort((a, b) -> Integer.compare(order.indexOf(String.valueOf(a[0])), order.indexOf(String.valueOf(b[0]))));
        for (Object[] r : rows.subList(0, Math.min(rows.size(), Charts.MAX_SERIES))) {
            if (r[1] == null) {
                continue;
            }
            Object[] q = (Object[]) ((Array) r[1]).getArray();
            ObjectNode s = series.addObject().put("name", String.valueOf(r[0]));
            ArrayNode x = s.putArray("x");
            for (Object v : q) {
                x.add(((Number) v).doubleValue());
            }
            s.set("p", Charts.numbers(PROBABILITIES));
        }
        return c;
    }

    private static ObjectNode cdf(ReportContext ctx, SweepAxis policy, String column, String title, String xName)
            throws SQLException {
        return cdf(ctx, Dataset.REQUESTS, policy, column, title, xName, "status = 'completed'");
    }

    private static double[] probabilities() {
        double[] p = new double[103];
        for (int i = 0; i <= 100; i++) {
            p[i] = i / 100.0;
        }
        p[101] = 0.995;
        p[102] = 0.999;
        Arrays.sort(p);
        return p;
    }
}
