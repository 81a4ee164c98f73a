package io.servesim.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.metrics.Column;
import io.servesim.metrics.MetricCatalog;
import io.servesim.sweep.Dataset;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Prefill/decode disaggregation ({@code deployment.architecture: pd}; README "Prefill/decode disaggregation"), from
 * {@code cells/}: the KV transfers (transfer time, time waiting for the link's shared bandwidth and for the decode
 * instance's KV blocks) and each pool's utilization and p99 queueing against load, one colour per fleet (the policy
 * axis), means over seeds and the axes not drawn; and goodput per GPU of every fleet, aggregated ones included, as
 * grouped bars per load value: DistServe's comparison (Zhong et al., OSDI'24, goodput per GPU of a P/D split against
 * an aggregated fleet of the same GPUs). Shown only when some cell ran P/D; a fleet without transfers draws no
 * transfer or pool lines. Without a load axis the charts have the single category {@code all}.
 */
final class PdPanel implements Panel {
    /** A line of a chart: a {@code cells/} column, the word the tooltip adds to the fleet's name, and its dash. */
    private record Line(Column column, String variant, boolean dashed) {
        Line(String column, String variant, boolean dashed) {
            this(MetricCatalog.column(column), variant, dashed);
        }
    }

    /** A chart of lines against load, in its lines' unit. */
    private record Curve(String title, List<Line> lines) {
        String unit() {
            return lines.get(0).column().unit();
        }
    }

    private static final List<Curve> CURVES = List.of(
            new Curve("KV transfer time", List.of(new Line("pd_transfer_mean_ms", "mean", true),
                    new Line("pd_transfer_p99_ms", "p99", false))),
            new Curve("Transfer time waiting for bandwidth", List.of(new Line("pd_bandwidth_wait_mean_ms", "mean", true),
                    new Line("pd_bandwidth_wait_p99_ms", "p99", false))),
            new Curve("Wait for decode KV blocks (mean)", List.of(new Line("pd_decode_block_wait_mean_ms", "mean", false))),
            new Curve("Pool utilization", List.of(new Line("prefill_utilization", "prefill", false),
                    new Line("decode_utilization", "decode", true))),
            new Curve("Pool queueing p99", List.of(new Line("prefill_queueing_p99_ms", "prefill", false),
                    new Line("decode_queueing_p99_ms", "decode", true))));

    private static final Column GOODPUT_PER_GPU = MetricCatalog.column("goodput_per_gpu_rps");
    /** The columns the fleets' description and the filter on P/D cells read. */
    private static final List<Column> FLEET = Stream.of("architecture", "gpus", "pd_transfers", "pd_decode_block_waits")
            .map(MetricCatalog::column).toList();

    @Override
    public String id() {
        return "pd";
    }

    @Override
    public List<Column> metrics() {
        List<Column> all = new ArrayList<>();
        CURVES.forEach(c -> c.lines().forEach(l -> all.add(l.column())));
        all.add(GOODPUT_PER_GPU);
        all.addAll(FLEET);
        return all;
    }

    @Override
    public Optional<ObjectNode> section(ReportContext ctx) throws SQLException {
        List<String> columns = new ArrayList<>();
        CURVES.forEach(c -> c.lines().forEach(l -> columns.add(l.column().name())));
        List<String> required = metrics().stream().map(Column::name).toList();
        if (!ctx.has(Dataset.CELLS, required.toArray(String[]::new)) || !Boolean.TRUE.equals(ctx.duck().value(
                "SELECT bool_or(architecture = 'pd') FROM " + ctx.from(Dataset.CELLS)))) {
            return Optional.empty();
        }
        SweepAxis load = ctx.axes().load();
        List<String> xLabels = load == null ? List.of("all") : load.labels();
        String xName = load == null ? "(no load axis)" : load.name();
        SweepAxis fleet = ctx.axes().policy();
        List<String> fleets = fleet == null ? List.of("all") : fleet.labels();
        int drawn = Math.min(fleets.size(), Charts.MAX_SERIES);
        StringBuilder sql = new StringBuilder("SELECT " + ReportContext.label(fleet) + " AS g, " + ReportContext.label(load) + " AS x");
        columns.forEach(c -> sql.append(", avg(").append(Duck.quote(c)).append(")"));
        List<Object[]> rows = ctx.duck().rows(sql + " FROM " + ctx.from(Dataset.CELLS) + " WHERE architecture = 'pd' GROUP BY ALL");
        ArrayNode charts = Charts.JSON.createArrayNode();
        for (Curve curve : CURVES) {
            ObjectNode c = Charts.chart("curves", curve.title(), xName, curve.unit());
            c.set("xLabels", Charts.strings(xLabels));
            ArrayNode series = c.putArray("series");
            for (int g = 0; g < drawn; g++) {
                for (Line line : curve.lines()) {
                    Double[] y = values(rows, fleets.get(g), xLabels, 2 + columns.indexOf(line.column().name()));
                    if (Arrays.stream(y).anyMatch(v -> v != null)) {
                        series.addObject().put("name", fleets.get(g)).put("variant", line.variant()).put("colorIndex", g)
                                .put("dashed", line.dashed()).set("y", Charts.numbers(y));
                    }
                }
            }
            charts.add(c);
        }
        charts.add(goodputPerGpu(ctx, fleet, fleets, load, xLabels, xName));
        ObjectNode section = Charts.section(id(), "Prefill/decode disaggregation" + (load == null ? "" : " vs load"),
                "Cells that ran P/D (deployment.architecture: pd), one colour per " + (fleet == null ? "group" : fleet.name())
                        + " value, means over seeds and the axes not drawn: KV transfer time (dashed mean, solid p99), the"
                        + " part of it spent waiting for the link's shared bandwidth, the wait for free KV blocks on the"
                        + " decode instance before a transfer starts, and each pool's utilization and p99 queueing (solid"
                        + " prefill, dashed decode). The bars compare goodput per GPU (requests/s meeting both TTFT and TPOT"
                        + " targets, per GPU) of every fleet, aggregated ones included: DistServe's comparison."
                        + fleets(ctx, fleet) + (fleet == null ? "" : Charts.cutNote(fleets, fleet.name())));
        section.set("charts", charts);
        return Optional.of(section);
    }

    /** Goodput per GPU per load value, a bar per fleet (every cell, whatever its architecture). */
    private static ObjectNode goodputPerGpu(ReportContext ctx, SweepAxis fleet, List<String> fleets, SweepAxis load,
                                            List<String> xLabels, String xName) throws SQLException {
        List<Object[]> rows = ctx.duck().rows("SELECT " + ReportContext.label(fleet) + " AS g, " + ReportContext.label(load)
                + " AS x, avg(" + Duck.quote(GOODPUT_PER_GPU.name()) + ") FROM " + ctx.from(Dataset.CELLS) + " GROUP BY ALL");
        ObjectNode c = Charts.chart("bars", "Goodput per GPU", xName, GOODPUT_PER_GPU.unit());
        c.set("categories", Charts.strings(xLabels));
        ArrayNode series = c.putArray("series");
        for (int g = 0; g < Math.min(fleets.size(), Charts.MAX_SERIES); g++) {
            series.addObject().put("name", fleets.get(g)).set("y", Charts.numbers(values(rows, fleets.get(g), xLabels, 2)));
        }
        return c;
    }

    /** Column {@code k} of the rows of fleet {@code g}, over the load labels (null where no cell has it). */
    private static Double[] values(List<Object[]> rows, String g, List<String> xLabels, int k) {
        Double[] y = new Double[xLabels.size()];
        for (Object[] r : rows) {
            int x = xLabels.indexOf(String.valueOf(r[1]));
            if (g.equals(String.valueOf(r[0])) && x >= 0) {
                y[x] = Duck.number(r[k]);
            }
        }
        return y;
    }

    /** Per fleet: its architecture, mean GPUs, and how many transfers waited for decode blocks. */
    private static String fleets(ReportContext ctx, SweepAxis fleet) throws SQLException {
        StringBuilder s = new StringBuilder(" Fleets:");
        for (Object[] r : ctx.duck().rows("SELECT " + ReportContext.label(fleet) + " AS g, count(*) FILTER (WHERE architecture"
                + " = 'pd'), count(*), avg(gpus), sum(pd_decode_block_waits), sum(pd_transfers) FROM " + ctx.from(Dataset.CELLS)
                + " GROUP BY g ORDER BY min(cell_index)")) {
            long pd = ((Number) r[1]).longValue();
            long all = ((Number) r[2]).longValue();
            s.append(' ').append(r[0]).append(' ').append(pd == 0 ? "aggregated" : pd == all ? "P/D" : "mixed")
                    .append(String.format(Locale.ROOT, " (%s GPUs", Duck.number(r[3]) == null ? "-" : fmt(Duck.number(r[3]))));
            if (pd > 0) {
                s.append(String.format(Locale.ROOT, ", %d of %d transfers waited for decode blocks", ((Number) r[4]).longValue(),
                        ((Number) r[5]).longValue()));
            }
            s.append(");");
        }
        s.setCharAt(s.length() - 1, '.');
        return s.toString();
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
