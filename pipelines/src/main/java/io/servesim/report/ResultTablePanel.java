package io.servesim.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.metrics.Column;
import io.servesim.metrics.MetricCatalog;
import io.servesim.sweep.Dataset;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The result table: one row per axis combination (means over seeds, in the sweep's cell order) with the
 * metric columns of {@link #METRICS} that {@code cells/} has; the page sorts it by any column.
 */
final class ResultTablePanel implements Panel {
    static final List<Column> METRICS = Stream.of("ttft_p50_ms", "ttft_p99_ms", "tpot_p50_ms", "tpot_p99_ms", "e2e_p50_ms",
            "e2e_p99_ms", "throughput_rps", "output_tokens_per_s", "slo_attainment", "goodput_rps", "prefix_hit_rate",
            "load_imbalance_cv", "preemptions", "dropped").map(MetricCatalog::column).toList();

    @Override
    public String id() {
        return "table";
    }

    @Override
    public List<Column> metrics() {
        return METRICS;
    }

    @Override
    public Optional<ObjectNode> section(ReportContext ctx) throws SQLException {
        List<String> axes = ctx.sweep().axisNames();
        List<String> metrics = METRICS.stream().map(Column::name).filter(m -> ctx.has(Dataset.CELLS, m)).toList();
        List<String> columns = new ArrayList<>(axes);
        columns.add("seeds");
        columns.addAll(metrics);
        StringBuilder sql = new StringBuilder("SELECT ");
        axes.forEach(a -> sql.append(Duck.quote(a)).append(", "));
        sql.append("count(*)");
        metrics.forEach(m -> sql.append(", avg(").append(Duck.quote(m)).append(')'));
        sql.append(" FROM ").append(ctx.from(Dataset.CELLS));
        if (!axes.isEmpty()) {
            sql.append(" GROUP BY ALL");
        }
        sql.append(" ORDER BY min(cell_index)");
        boolean[] text = new boolean[columns.size()];
        for (int i = 0; i < axes.size(); i++) {
            text[i] = true;
        }
        ObjectNode section = Charts.section(id(), "Results",
                "One row per axis combination; metrics are means over seeds. Click a heading to sort.");
        section.set("table", Charts.table(columns, text, ctx.duck().rows(sql.toString())));
        return Optional.of(section);
    }
}
