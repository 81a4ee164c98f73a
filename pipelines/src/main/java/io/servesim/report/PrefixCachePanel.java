package io.servesim.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.sweep.Dataset;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * KV cache use against load per policy value: the prefix-cache hit rate and the mean KV utilisation
 * ({@code prefix_hit_rate}, {@code kv_utilization_mean} of {@code cells/}), means over seeds and other axes.
 */
final class PrefixCachePanel implements Panel {
    private static final List<String> METRICS = List.of("prefix_hit_rate", "kv_utilization_mean");

    @Override
    public Optional<ObjectNode> section(ReportContext ctx) throws SQLException {
        SweepAxis load = ctx.axes().load();
        if (load == null || !ctx.has(Dataset.CELLS, METRICS.toArray(String[]::new))) {
            return Optional.empty();
        }
        SweepAxis policy = ctx.axes().policy();
        List<String> labels = policy == null ? List.of("all") : policy.labels();
        ObjectNode section = Charts.section("cache", "KV cache vs load",
                "Prefix-cache hit rate (share of prompt tokens served from cache) and mean KV-cache utilisation, means over"
                        + " seeds and the axes not drawn." + (policy == null ? "" : Charts.cutNote(labels, policy.name())));
        String sql = "SELECT " + ReportContext.label(policy) + " AS g, " + Duck.quote(load.name()) + " AS x, avg(prefix_hit_rate),"
                + " avg(kv_utilization_mean) FROM " + ctx.from(Dataset.CELLS) + " GROUP BY ALL";
        List<Object[]> rows = ctx.duck().rows(sql);
        ArrayNode charts = (ArrayNode) section.get("charts");
        for (int m = 0; m < METRICS.size(); m++) {
            ObjectNode c = Charts.chart("curves", METRICS.get(m), load.name(), "fraction");
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
