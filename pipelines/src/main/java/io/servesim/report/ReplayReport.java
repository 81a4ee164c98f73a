package io.servesim.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.fidelity.ComparisonReport;
import io.servesim.fidelity.ReplayRow;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * {@code servesim replay-real RUN_DIR --report FILE}: the replay as one self-contained page (the same
 * {@link HtmlPage} as the sweep report): simulated against measured CDFs of TTFT, TPOT, E2E and queueing
 * (each curve {@link LatencyCdfPanel#PROBABILITIES} quantiles of all requests), per-request scatters of
 * simulated against measured values (every request up to {@link #MAX_POINTS}; beyond, every k-th request in
 * workload order, k the smallest stride that fits, as the caption says), the statistics table and the
 * command's printed output.
 */
public final class ReplayReport {
    /** Most requests a scatter draws. */
    static final int MAX_POINTS = 2000;
    private static final List<String> METRICS = List.of("TTFT", "TPOT", "E2E", "queueing");
    private static final List<ToDoubleFunction<ReplayRow>> REAL = List.of(ReplayRow::realTtftMs, ReplayRow::realTpotMs,
            ReplayRow::realE2eMs, ReplayRow::realQueueingMs);
    private static final List<ToDoubleFunction<ReplayRow>> SIM = List.of(ReplayRow::simTtftMs, ReplayRow::simTpotMs,
            ReplayRow::simE2eMs, ReplayRow::simQueueingMs);

    private ReplayReport() {
    }

    /** Writes the page of a replay titled {@code title} to {@code file} ({@code printed}: the command's stdout). */
    public static void write(Path file, String title, String printed, List<ReplayRow> rows, ComparisonReport report)
            throws IOException {
        ObjectNode data = Charts.JSON.createObjectNode();
        data.put("meta", title + ": " + rows.size() + " requests, " + report.compared() + " compared, " + report.missing()
                + " not completed by the simulator");
        ArrayNode sections = data.putArray("sections");
        ObjectNode cdfs = Charts.section("cdf", "Simulated vs measured CDFs", "All requests with a value on each side; each"
                + " curve steps through " + LatencyCdfPanel.PROBABILITIES.length + " exact quantiles.");
        int stride = Math.max(1, (rows.size() + MAX_POINTS - 1) / MAX_POINTS);
        ObjectNode scatters = Charts.section("scatter", "Per request: simulated vs measured", (stride == 1
                ? "Every request" : "Every " + stride + "th request (" + (rows.size() + stride - 1) / stride + " of " + rows.size()
                + ")") + " with both values; the dotted line is y = x.");
        for (int m = 0; m < METRICS.size(); m++) {
            String name = METRICS.get(m);
            ObjectNode cdf = Charts.chart("cdf", name + " CDF", name + " (ms)", "fraction");
            ArrayNode series = cdf.putArray("series");
            for (String side : List.of("measured", "simulated")) {
                double[] q = quantiles(values(rows, side.equals("measured") ? REAL.get(m) : SIM.get(m)));
                if (q.length > 0) {
                    ObjectNode s = series.addObject().put("name", side);
                    s.set("x", Charts.numbers(q));
                    s.set("p", Charts.numbers(LatencyCdfPanel.PROBABILITIES));
                }
            }
            ((ArrayNode) cdfs.get("charts")).add(cdf);
            ObjectNode scatter = Charts.chart("scatter", name, "measured (ms)", "simulated (ms)");
            scatter.put("diagonal", true);
            ArrayNode points = scatter.putArray("series").addObject().put("name", name).putArray("points");
            for (int i = 0; i < rows.size(); i += stride) {
                double real = REAL.get(m).applyAsDouble(rows.get(i));
                double sim = SIM.get(m).applyAsDouble(rows.get(i));
                if (Double.isFinite(real) && Double.isFinite(sim)) {
                    points.addArray().add(real).add(sim);
                }
            }
            ((ArrayNode) scatters.get("charts")).add(scatter);
        }
        sections.add(cdfs);
        sections.add(scatters);
        ObjectNode table = Charts.section("table", "Statistics", "Measured against simulated, in ms; diff = (sim - real) / real, blank where the measured value is under 1 ms.");
        List<Object[]> lines = new ArrayList<>();
        report.lines().forEach(l -> lines.add(new Object[] {l.metric(), l.statistic(), l.realMs(), l.simMs(), l.diffPercent()}));
        table.set("table", Charts.table(List.of("metric", "statistic", "real_ms", "sim_ms", "diff_pct"),
                new boolean[] {true, true, false, false, false}, lines));
        sections.add(table);
        ObjectNode output = Charts.section("output", "Command output", "What replay-real printed.");
        output.putArray("files").addObject().put("name", "stdout").put("text", printed);
        sections.add(output);
        ReportFile.write(file, HtmlPage.render("servesim replay report: " + title, data));
    }

    private static double[] values(List<ReplayRow> rows, ToDoubleFunction<ReplayRow> f) {
        return rows.stream().mapToDouble(f).filter(Double::isFinite).sorted().toArray();
    }

    /** Quantiles of sorted {@code v} at {@link LatencyCdfPanel#PROBABILITIES}, interpolated as DuckDB's quantile_cont. */
    static double[] quantiles(double[] v) {
        if (v.length == 0) {
            return v;
        }
        return Arrays.stream(LatencyCdfPanel.PROBABILITIES).map(p -> {
            double pos = p * (v.length - 1);
            int lo = (int) Math.floor(pos);
            int hi = Math.min(lo + 1, v.length - 1);
            return v[lo] + (pos - lo) * (v[hi] - v[lo]);
        }).toArray();
    }
}
