package io.servesim.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.exit.ErrorReport;
import io.servesim.compare.ComparePairs;
import io.servesim.metrics.Column;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Simulation against measurements, when {@code servesim compare} wrote {@code compare/compare.parquet} beside
 * {@code cells/}: its rank statistics per metric as a table, and per metric a scatter of the simulated
 * against the measured value of each joined key ({@link ComparePairs}, re-read from the CSV the comparison
 * names) with the y = x line. When that CSV is gone the table is shown alone, and the caption says so.
 */
final class ComparePanel implements Panel {
    @Override
    public String id() {
        return "compare";
    }

    @Override
    public List<Column> metrics() {
        return List.of();
    }

    private static final List<String> STATS = List.of("metric", "keys", "spearman_rho", "kendall_tau_b", "pairwise_accuracy",
            "mape_pct");

    @Override
    public Optional<ObjectNode> section(ReportContext ctx) throws SQLException {
        Path file = ctx.sweep().compareFolder().resolve("compare.parquet");
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        String from = "read_parquet('" + file.toString().replace("'", "''") + "')";
        List<Object[]> stats = ctx.duck().rows("SELECT " + String.join(", ", STATS) + " FROM " + from);
        Object[] first = ctx.duck().rows("SELECT on_columns, sim_path, real_path FROM " + from + " LIMIT 1").get(0);
        List<String> on = Arrays.stream((Object[]) ((Array) first[0]).getArray()).map(String::valueOf).toList();
        Path sim = Path.of(String.valueOf(first[1]));
        Path real = Path.of(String.valueOf(first[2]));
        List<String> metrics = stats.stream().map(r -> String.valueOf(r[0])).toList();
        boolean[] text = new boolean[STATS.size()];
        text[0] = true;
        String caption = "From " + file + ": " + sim + " against " + real + ", joined on " + String.join(", ", on)
                + ". Points are keys on both sides (sim means over seeds); the dotted line is y = x.";
        ObjectNode section = Charts.section(id(), "Simulation vs measurements", caption);
        section.set("table", Charts.table(STATS, text, stats));
        try {
            List<List<ComparePairs.Pair>> pairs = ComparePairs.read(sim, real, on, metrics);
            ArrayNode charts = (ArrayNode) section.get("charts");
            for (int m = 0; m < metrics.size(); m++) {
                ObjectNode c = Charts.chart("scatter", metrics.get(m), "measured", "simulated");
                c.put("diagonal", true);
                ObjectNode s = c.putArray("series").addObject().put("name", metrics.get(m));
                ArrayNode points = s.putArray("points");
                List<String> keys = new ArrayList<>();
                for (ComparePairs.Pair p : pairs.get(m)) {
                    points.addArray().add(p.real()).add(p.sim());
                    keys.add(p.key());
                }
                s.set("keys", Charts.strings(keys));
                charts.add(c);
            }
        } catch (IOException | RuntimeException e) {
            section.put("caption", caption + " No scatter: cannot re-read the compared files (" + ErrorReport.describe(e) + ").");
        }
        return Optional.of(section);
    }
}
