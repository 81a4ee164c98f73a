package io.servesim.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.metrics.Column;
import io.servesim.sweep.Dataset;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Replica timelines of an autoscaled sweep, from the {@code scaling/} dataset ({@code outputs: {scaling: true}};
 * {@code schemas/scaling.avsc}): ready replicas, and replicas starting (provisioning + loading + warming), against
 * time, one step line per cell (its axis labels; the first seed of each axis combination; the first
 * {@link Charts#MAX_SERIES} combinations in label order). A cell's rows are a row at time 0, one per change and one
 * at the end, so the steps are exact; a cell with more than {@value #MAX_POINTS} rows is drawn from every n-th row
 * (and its last), said in the caption. Absent when the sweep wrote no {@code scaling/}.
 */
final class ReplicaTimelinePanel implements Panel {
    @Override
    public String id() {
        return "replicas";
    }

    @Override
    public List<Column> metrics() {
        return List.of();
    }

    /** Most timeline rows drawn per cell. */
    static final int MAX_POINTS = 2000;
    /** Runs longer than this are drawn in hours, shorter ones in seconds. */
    private static final long HOURS_ABOVE_US = 7_200_000_000L;

    @Override
    public Optional<ObjectNode> section(ReportContext ctx) throws SQLException {
        if (!ctx.has(Dataset.SCALING, "time_us", "ready_replicas", "provisioning_replicas", "loading_replicas",
                "warming_replicas") || ctx.rows(Dataset.SCALING) == 0) {
            return Optional.empty();
        }
        List<SweepAxis> axes = ctx.sweep().axes();
        List<String> parts = new ArrayList<>();
        for (SweepAxis a : axes) {
            parts.add("'" + a.name().replace("'", "''") + "=' || " + Duck.quote(a.name()));
        }
        String name = parts.isEmpty() ? "'all'" : "concat_ws(' ', " + String.join(", ", parts) + ")";
        String from = ctx.from(Dataset.SCALING);
        // the first seed of each axis combination, the first MAX_SERIES combinations by label
        String chosen = "SELECT name, min(seed) AS seed FROM (SELECT " + name + " AS name, seed FROM " + from + ")"
                + " GROUP BY name ORDER BY name LIMIT " + Charts.MAX_SERIES;
        long combinations = ((Number) ctx.duck().value("SELECT count(DISTINCT " + name + ") FROM " + from)).longValue();
        Number maxTime = (Number) ctx.duck().value("SELECT max(time_us) FROM " + from);
        boolean hours = maxTime != null && maxTime.longValue() > HOURS_ABOVE_US;
        double unitUs = hours ? 3.6e9 : 1e6;
        String sql = "SELECT s.name, s.time_us, s.ready_replicas, s.provisioning_replicas + s.loading_replicas"
                + " + s.warming_replicas FROM (SELECT " + name + " AS name, * FROM " + from + ") s JOIN (" + chosen
                + ") c ON s.name = c.name AND s.seed = c.seed ORDER BY s.name, s.time_us";
        Map<String, List<double[]>> byCell = new LinkedHashMap<>();
        for (Object[] r : ctx.duck().rows(sql)) {
            byCell.computeIfAbsent(String.valueOf(r[0]), k -> new ArrayList<>()).add(new double[] {
                ((Number) r[1]).longValue() / unitUs, ((Number) r[2]).doubleValue(), ((Number) r[3]).doubleValue()});
        }
        String xName = hours ? "time (h)" : "time (s)";
        ObjectNode ready = Charts.chart("timeline", "Ready replicas", xName, "replicas");
        ObjectNode starting = Charts.chart("timeline", "Replicas starting", xName, "replicas");
        ArrayNode readySeries = ready.putArray("series");
        ArrayNode startingSeries = starting.putArray("series");
        boolean thinned = false;
        for (Map.Entry<String, List<double[]>> cell : byCell.entrySet()) {
            List<double[]> rows = thin(cell.getValue());
            thinned |= rows.size() < cell.getValue().size();
            double[] x = new double[rows.size()];
            double[] yReady = new double[rows.size()];
            double[] yStarting = new double[rows.size()];
            for (int i = 0; i < rows.size(); i++) {
                x[i] = rows.get(i)[0];
                yReady[i] = rows.get(i)[1];
                yStarting[i] = rows.get(i)[2];
            }
            readySeries.addObject().put("name", cell.getKey()).<ObjectNode>set("x", Charts.numbers(x))
                    .set("y", Charts.numbers(yReady));
            startingSeries.addObject().put("name", cell.getKey()).<ObjectNode>set("x", Charts.numbers(x))
                    .set("y", Charts.numbers(yStarting));
        }
        String caption = "Replicas per lifecycle state over each cell's run, from scaling/ (a row at 0, one per change,"
                + " one at the end). One line per axis combination, its first seed."
                + (combinations > Charts.MAX_SERIES ? " Only the first " + Charts.MAX_SERIES + " of " + combinations
                        + " combinations (by label) are drawn." : "")
                + (thinned ? " Cells with more than " + MAX_POINTS + " rows are drawn from every n-th row." : "");
        ObjectNode section = Charts.section(id(), "Replica timelines", caption);
        ((ArrayNode) section.get("charts")).add(ready).add(starting);
        return Optional.of(section);
    }

    /** {@code rows} if at most {@link #MAX_POINTS}, else every n-th row and the last. */
    private static List<double[]> thin(List<double[]> rows) {
        if (rows.size() <= MAX_POINTS) {
            return rows;
        }
        int step = (rows.size() + MAX_POINTS - 2) / (MAX_POINTS - 1);
        List<double[]> out = new ArrayList<>();
        for (int i = 0; i < rows.size() - 1; i += step) {
            out.add(rows.get(i));
        }
        out.add(rows.get(rows.size() - 1));
        return out;
    }
}
