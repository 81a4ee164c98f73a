package io.servesim.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.metrics.Column;
import io.servesim.metrics.MetricCatalog;
import io.servesim.sweep.Dataset;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Cell metrics against load, one curve per policy value, means over seeds and the other axes: one
 * chart per metric, its y-axis in the metric's unit from the catalog. The panel appears when {@code cells/} has the
 * metrics and, if {@code activeWhen} is given (a SQL condition over the cells' aggregates), when the sweep used the
 * feature the metrics describe, so a sweep without a CPU KV tier or autoscaling shows no empty charts.
 *
 * @param id         section id
 * @param title      section title
 * @param caption    what the charts show
 * @param metrics    {@code cells/} columns of the metric catalog, one chart each
 * @param activeWhen SQL condition over aggregates of {@code cells/} (e.g. {@code sum(scale_ups) > 0}), or null
 */
record MetricCurvesPanel(String id, String title, String caption, List<Column> metrics, String activeWhen) implements Panel {
    /** Prefix-cache hit rate and KV utilisation, for every sweep. */
    static MetricCurvesPanel kvCache() {
        return new MetricCurvesPanel("cache", "KV cache vs load", "Prefix-cache hit rate (share of prompt tokens served"
                + " from cache) and mean KV-cache utilisation, means over seeds and the axes not drawn.",
                columns("prefix_hit_rate", "kv_utilization_mean"), null);
    }

    /** Per-tier hit rates and thrashing, for sweeps whose cells offloaded to a CPU KV tier. */
    static MetricCurvesPanel kvTiers() {
        return new MetricCurvesPanel("kv-tiers", "Tiered KV cache vs load", "Share of looked-up prompt tokens found in the"
                + " GPU tier and in the CPU tier (reloaded over the host link), and the share of reloads that thrashed"
                + " (reloaded within 1 ms of their offload); cells that offloaded to a CPU tier.",
                columns("gpu_hit_rate", "cpu_hit_rate", "kv_thrashing_rate"), "sum(" + name("kv_offloaded_blocks") + ") > 0");
    }

    /** Fleet size and cost, for sweeps whose cells scaled. */
    static MetricCurvesPanel autoscaling() {
        return new MetricCurvesPanel("autoscaling", "Autoscaling vs load", "Mean replicas over the run, its cost (replica-"
                + "seconds x TP x the GPU's hourly price) and SLO attainment while a replica was starting; cells whose"
                + " fleet scaled.", columns("mean_replicas", "cost_usd", "slo_attainment_while_starting"),
                "sum(" + name("scale_ups") + ") + sum(" + name("scale_downs") + ") > 0");
    }

    private static List<Column> columns(String... names) {
        return Arrays.stream(names).map(MetricCatalog::column).toList();
    }

    private static String name(String column) {
        return Duck.quote(MetricCatalog.column(column).name());
    }

    @Override
    public Optional<ObjectNode> section(ReportContext ctx) throws SQLException {
        SweepAxis load = ctx.axes().load();
        if (load == null || !ctx.has(Dataset.CELLS, metrics.stream().map(Column::name).toArray(String[]::new))) {
            return Optional.empty();
        }
        if (activeWhen != null && !Boolean.TRUE.equals(ctx.duck().value("SELECT " + activeWhen + " FROM " + ctx.from(Dataset.CELLS)))) {
            return Optional.empty();
        }
        SweepAxis policy = ctx.axes().policy();
        List<String> labels = policy == null ? List.of("all") : policy.labels();
        ObjectNode section = Charts.section(id, title, caption + (policy == null ? "" : Charts.cutNote(labels, policy.name())));
        StringBuilder sql = new StringBuilder("SELECT " + ReportContext.label(policy) + " AS g, " + Duck.quote(load.name()) + " AS x");
        metrics.forEach(m -> sql.append(", avg(").append(Duck.quote(m.name())).append(")"));
        List<Object[]> rows = ctx.duck().rows(sql + " FROM " + ctx.from(Dataset.CELLS) + " GROUP BY ALL");
        ArrayNode charts = (ArrayNode) section.get("charts");
        for (int m = 0; m < metrics.size(); m++) {
            ObjectNode c = Charts.chart("curves", metrics.get(m).name(), load.name(), metrics.get(m).unit());
            c.set("xLabels", Charts.strings(load.labels()));
            ArrayNode series = c.putArray("series");
            for (int g = 0; g < Math.min(labels.size(), Charts.MAX_SERIES); g++) {
                Double[] y = new Double[load.labels().size()];
                for (Object[] r : rows) {
                    int x = load.labels().indexOf(String.valueOf(r[1]));
                    if (labels.get(g).equals(String.valueOf(r[0])) && x >= 0) {
                        y[x] = Duck.number(r[2 + m]);
                    }
                }
                series.addObject().put("name", labels.get(g)).put("colorIndex", g).put("dashed", false).set("y", Charts.numbers(y));
            }
            charts.add(c);
        }
        return Optional.of(section);
    }
}
