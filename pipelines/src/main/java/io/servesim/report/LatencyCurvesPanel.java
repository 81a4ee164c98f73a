package io.servesim.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.metrics.Column;
import io.servesim.metrics.Metric;
import io.servesim.metrics.MetricCatalog;
import io.servesim.sweep.Dataset;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Latency against load: for each axis other than the load axis, one chart per latency (TTFT, TPOT, E2E)
 * whose series are that axis's values at p50 (dashed) and p99 (solid). A point is the mean over seeds (and
 * over the remaining axes) of the cells' percentile; the band spans the lowest to the highest seed's value.
 */
final class LatencyCurvesPanel implements Panel {
    private static final List<Metric> LATENCIES = Stream.of("ttft_ms", "tpot_ms", "e2e_ms").map(MetricCatalog::metric).toList();
    private static final List<Metric.Stat> PERCENTILES = List.of(Metric.Stat.P50, Metric.Stat.P99);
    /** Per latency, its p50 and p99 columns. */
    private static final List<Column> COLUMNS = LATENCIES.stream().flatMap(l -> l.columns().stream())
            .filter(c -> PERCENTILES.contains(c.stat())).toList();

    @Override
    public String id() {
        return "latency";
    }

    @Override
    public List<Column> metrics() {
        return COLUMNS;
    }

    @Override
    public Optional<ObjectNode> section(ReportContext ctx) throws SQLException {
        SweepAxis load = ctx.axes().load();
        List<String> columns = COLUMNS.stream().map(Column::name).toList();
        if (load == null || !ctx.has(Dataset.CELLS, columns.toArray(String[]::new))) {
            return Optional.empty();
        }
        long seeds = ((Number) ctx.duck().value("SELECT count(DISTINCT seed) FROM " + ctx.from(Dataset.CELLS))).longValue();
        ObjectNode section = Charts.section(id(), "Latency vs load (" + load.name() + ")",
                "x: the load axis '" + load.name() + "' (" + ctx.axes().loadReason() + "); --load picks another. Each point is the mean over "
                        + seeds + " seed(s) and over the axes not drawn of the cells' p50 (dashed) or p99 (solid)"
                        + (seeds > 1 ? "; the band spans the lowest to the highest seed's value." : "."));
        List<SweepAxis> groups = new ArrayList<>(ctx.axes().others(ctx.sweep()));
        if (groups.isEmpty()) {
            groups.add(null);
        }
        StringBuilder notes = new StringBuilder();
        for (SweepAxis group : groups) {
            List<String> labels = group == null ? List.of("all") : group.labels();
            notes.append(group == null ? "" : Charts.cutNote(labels, group.name()));
            Map<String, Double[][]> stats = query(ctx, group, load, columns);
            for (Metric latency : LATENCIES) {
                String title = latency.name().substring(0, latency.name().length() - "_ms".length()).toUpperCase(Locale.ROOT);
                ObjectNode chart = Charts.chart("curves", title + (group == null ? "" : " by " + group.name()),
                        load.name(), latency.unit());
                chart.set("xLabels", Charts.strings(load.labels()));
                ArrayNode series = chart.putArray("series");
                for (int g = 0; g < Math.min(labels.size(), Charts.MAX_SERIES); g++) {
                    for (Column column : latency.columns()) {
                        if (!PERCENTILES.contains(column.stat())) {
                            continue;
                        }
                        String p = column.stat().key();
                        int m = columns.indexOf(column.name());
                        Double[][] s = stats.getOrDefault(labels.get(g), new Double[0][]);
                        if (s.length == 0) {
                            continue;
                        }
                        ObjectNode line = series.addObject();
                        line.put("name", labels.get(g)).put("variant", p).put("colorIndex", g).put("dashed", p.equals("p50"));
                        line.set("y", Charts.numbers(s[3 * m]));
                        if (seeds > 1) {
                            line.set("lo", Charts.numbers(s[3 * m + 1]));
                            line.set("hi", Charts.numbers(s[3 * m + 2]));
                        }
                    }
                }
                ((ArrayNode) section.get("charts")).add(chart);
            }
        }
        section.put("caption", section.get("caption").asText() + notes);
        return Optional.of(section);
    }

    /**
     * Per label of {@code group}: for each metric, three arrays over the load labels (mean, min, max over
     * seeds of the per-seed mean).
     */
    private static Map<String, Double[][]> query(ReportContext ctx, SweepAxis group, SweepAxis load, List<String> metrics)
            throws SQLException {
        StringBuilder perSeed = new StringBuilder();
        StringBuilder overSeeds = new StringBuilder();
        for (int m = 0; m < metrics.size(); m++) {
            perSeed.append(", avg(").append(Duck.quote(metrics.get(m))).append(") AS m").append(m);
            overSeeds.append(", avg(m").append(m).append("), min(m").append(m).append("), max(m").append(m).append(")");
        }
        String sql = "WITH s AS (SELECT " + ReportContext.label(group) + " AS g, " + Duck.quote(load.name()) + " AS x, seed"
                + perSeed + " FROM " + ctx.from(Dataset.CELLS) + " GROUP BY ALL) SELECT g, x" + overSeeds
                + " FROM s GROUP BY g, x";
        Map<String, Double[][]> out = new HashMap<>();
        int points = load.labels().size();
        for (Object[] row : ctx.duck().rows(sql)) {
            Double[][] arrays = out.computeIfAbsent(String.valueOf(row[0]), k -> new Double[3 * metrics.size()][points]);
            int x = load.labels().indexOf(String.valueOf(row[1]));
            if (x < 0) {
                continue;
            }
            for (int i = 0; i < 3 * metrics.size(); i++) {
                arrays[i][x] = Duck.number(row[2 + i]);
            }
        }
        return out;
    }
}
