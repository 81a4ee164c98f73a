package io.servesim.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.metrics.Column;
import io.servesim.metrics.MetricCatalog;
import io.servesim.sweep.Dataset;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * SLO attainment and goodput as heatmaps over two axes ({@code --x}, {@code --y}; default the first two):
 * a cell is the mean over seeds and over the other axes. Attainment is coloured on a fixed 0-1 scale, red to
 * green; goodput on its own range.
 */
final class SloHeatmapPanel implements Panel {
    private static final List<String> RED_TO_GREEN = List.of("#d73027", "#fee08b", "#1a9850");
    private static final List<String> BLUES = List.of("#f7fbff", "#6baed6", "#08306b");
    private static final Column ATTAINMENT = MetricCatalog.column("slo_attainment");
    private static final Column GOODPUT = MetricCatalog.column("goodput_rps");

    @Override
    public String id() {
        return "slo";
    }

    @Override
    public List<Column> metrics() {
        return List.of(ATTAINMENT, GOODPUT);
    }

    @Override
    public Optional<ObjectNode> section(ReportContext ctx) throws SQLException {
        SweepAxis x = ctx.axes().x();
        SweepAxis y = ctx.axes().y();
        if (x == null || !ctx.has(Dataset.CELLS, ATTAINMENT.name(), GOODPUT.name())) {
            return Optional.empty();
        }
        String yName = y == null ? "(all)" : y.name();
        List<String> yLabels = y == null ? List.of("all") : y.labels();
        ObjectNode section = Charts.section(id(), "SLO attainment and goodput: " + x.name() + " x " + yName,
                "Mean over seeds and over the other axes of each cell's share of requests meeting the SLO, and of its"
                        + " goodput (requests/s meeting it). Pick the axes with --x and --y (default the first two).");
        String sql = "SELECT " + Duck.quote(x.name()) + ", " + ReportContext.label(y) + ", avg(" + Duck.quote(ATTAINMENT.name())
                + "), avg(" + Duck.quote(GOODPUT.name()) + ") FROM " + ctx.from(Dataset.CELLS) + " GROUP BY ALL";
        List<Object[]> rows = ctx.duck().rows(sql);
        ArrayNode charts = (ArrayNode) section.get("charts");
        charts.add(heatmap("SLO attainment", x, yName, yLabels, rows, 2, 0.0, 1.0, RED_TO_GREEN));
        double maxGoodput = rows.stream().map(r -> Duck.number(r[3])).filter(v -> v != null).mapToDouble(v -> v).max().orElse(0);
        charts.add(heatmap("goodput (" + GOODPUT.unit() + ")", x, yName, yLabels, rows, 3, 0.0, maxGoodput, BLUES));
        return Optional.of(section);
    }

    private static ObjectNode heatmap(String title, SweepAxis x, String yName, List<String> yLabels, List<Object[]> rows,
                                      int column, double min, double max, List<String> colors) {
        ObjectNode c = Charts.chart("heatmap", title, x.name(), yName);
        c.set("xLabels", Charts.strings(x.labels()));
        c.set("yLabels", Charts.strings(yLabels));
        c.put("valueName", title).put("min", min).put("max", max);
        c.set("colors", Charts.strings(colors));
        ArrayNode cells = c.putArray("cells");
        for (Object[] r : rows) {
            Double v = Duck.number(r[column]);
            int xi = x.labels().indexOf(String.valueOf(r[0]));
            int yi = yLabels.indexOf(String.valueOf(r[1]));
            if (v != null && xi >= 0 && yi >= 0) {
                cells.addArray().add(xi).add(yi).add(v);
            }
        }
        return c;
    }
}
