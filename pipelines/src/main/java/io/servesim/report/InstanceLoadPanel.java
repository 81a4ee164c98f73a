package io.servesim.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.metrics.Column;
import io.servesim.metrics.MetricCatalog;
import io.servesim.sweep.Dataset;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Load balance across instances: requests routed to each instance per cell (mean over the cells of each
 * policy value), from {@code requests/}. Shown for multi-instance sweeps; the caption adds each policy's
 * mean imbalance (coefficient of variation, {@code load_imbalance_cv}) from {@code cells/}.
 */
final class InstanceLoadPanel implements Panel {
    private static final Column IMBALANCE = MetricCatalog.column("load_imbalance_cv");

    @Override
    public String id() {
        return "instances";
    }

    @Override
    public List<Column> metrics() {
        return List.of(IMBALANCE);
    }

    /** Most instances drawn as bars. */
    private static final int MAX_INSTANCES = 64;

    @Override
    public Optional<ObjectNode> section(ReportContext ctx) throws SQLException {
        if (!ctx.has(Dataset.REQUESTS, "instance_id") || ctx.rows(Dataset.REQUESTS) == 0) {
            return Optional.empty();
        }
        Number maxInstance = (Number) ctx.duck().value("SELECT max(instance_id) FROM " + ctx.from(Dataset.REQUESTS));
        if (maxInstance == null || maxInstance.intValue() < 1) {
            return Optional.empty();
        }
        int instances = Math.min(maxInstance.intValue() + 1, MAX_INSTANCES);
        SweepAxis policy = ctx.axes().policy();
        String g = ReportContext.label(policy);
        String sql = "SELECT g, instance_id, count(*) / any_value(n) FROM (SELECT " + g + " AS g, instance_id, count(DISTINCT"
                + " cell_id) OVER (PARTITION BY " + g + ") AS n FROM " + ctx.from(Dataset.REQUESTS) + " WHERE instance_id >= 0)"
                + " GROUP BY g, instance_id";
        List<String> labels = policy == null ? List.of("all") : policy.labels();
        Double[][] perPolicy = new Double[labels.size()][instances];
        for (Object[] r : ctx.duck().rows(sql)) {
            int p = labels.indexOf(String.valueOf(r[0]));
            int i = ((Number) r[1]).intValue();
            if (p >= 0 && i < instances) {
                perPolicy[p][i] = Duck.number(r[2]);
            }
        }
        ObjectNode c = Charts.chart("bars", "Requests per instance per cell", "instance", "requests");
        List<String> categories = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            categories.add(String.valueOf(i));
        }
        c.set("categories", Charts.strings(categories));
        ArrayNode series = c.putArray("series");
        for (int p = 0; p < Math.min(labels.size(), Charts.MAX_SERIES); p++) {
            series.addObject().put("name", labels.get(p)).set("y", Charts.numbers(perPolicy[p]));
        }
        c.put("wide", instances > 8);
        ObjectNode section = Charts.section(id(), "Per-instance load" + (policy == null ? "" : " per " + policy.name()),
                "Requests routed to each instance, mean per cell over the cells of each " + (policy == null ? "group" : policy.name())
                        + " value (all loads and seeds)." + imbalance(ctx, policy));
        ((ArrayNode) section.get("charts")).add(c);
        return Optional.of(section);
    }

    private static String imbalance(ReportContext ctx, SweepAxis policy) throws SQLException {
        if (!ctx.has(Dataset.CELLS, IMBALANCE.name())) {
            return "";
        }
        StringBuilder s = new StringBuilder(" Mean imbalance (CV of requests per instance):");
        List<Object[]> rows = ctx.duck().rows("SELECT " + ReportContext.label(policy) + " AS g, avg(" + Duck.quote(IMBALANCE.name()) + ") FROM "
                + ctx.from(Dataset.CELLS) + " GROUP BY g ORDER BY min(cell_index)");
        for (Object[] r : rows) {
            Double v = Duck.number(r[1]);
            s.append(' ').append(r[0]).append(' ').append(v == null ? "-" : String.format("%.3f", v)).append(';');
        }
        s.setCharAt(s.length() - 1, '.');
        return s.toString();
    }
}
