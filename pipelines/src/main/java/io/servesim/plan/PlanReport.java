package io.servesim.plan;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.report.Charts;
import io.servesim.report.ReportFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A plan's page ({@code report.html} in its output folder), drawn by the report's own page and script
 * ({@link ReportFile#writePage}, {@link Charts}): the cost/capacity frontier (every candidate whose capacity was
 * measured, the frontier through them, the recommended one and the target rate), each candidate run on the full trace
 * at the target by its SLO slack against its cost, the table of every candidate's verdict, and the printed summary,
 * recommended config and vLLM commands.
 */
final class PlanReport {
    private PlanReport() {
    }

    /** Writes the page of {@code result} to {@code file}; {@code files} are shown as they are (name, text). */
    static void write(Path file, PlanSpec spec, PlanResult result, List<String[]> files) throws IOException {
        ObjectNode data = Charts.JSON.createObjectNode();
        long measured = result.candidates().stream().filter(v -> !Double.isNaN(v.capacityRps())).count();
        data.put("meta", "plan " + spec.name() + ": " + spec.candidates().size() + " candidates"
                + (spec.capacityOnly() ? "" : ", target " + PlanRounds.rateLabel(spec.targetRps()) + " req/s")
                + ", SLOs " + String.join(", ", spec.slos().stream().map(Slo::toString).toList()) + "; " + measured
                + " capacities measured, to " + PlanRounds.rateLabel(spec.search().toleranceRps()) + " req/s");
        ArrayNode sections = data.putArray("sections");
        sections.add(frontier(spec, result));
        if (!spec.capacityOnly()) {
            sections.add(slack(spec, result));
        }
        sections.add(table(spec, result));
        ObjectNode out = Charts.section("files", "Files", "What the command printed and wrote.");
        ArrayNode list = out.putArray("files");
        files.forEach(f -> list.addObject().put("name", f[0]).put("text", f[1]));
        sections.add(out);
        ReportFile.writePage(file, "servesim plan: " + spec.name(), data);
    }

    private static ObjectNode frontier(PlanSpec spec, PlanResult result) {
        ObjectNode s = Charts.section("frontier", "Capacity against cost", "Each point is a candidate whose capacity was"
                + " measured (the finalists of successive halving and every candidate meeting the SLOs on the full trace): the"
                + " highest rate, on a grid of " + PlanRounds.rateLabel(spec.search().toleranceRps()) + " req/s, at which it"
                + " meets every SLO. The frontier joins those no cheaper candidate beats"
                + (spec.capacityOnly() ? "." : "; the dashed line is the target rate, and the recommended candidate is the"
                + " cheapest meeting every SLO there."));
        ObjectNode c = Charts.chart("scatter", "Capacity against cost per hour", "cost (USD per hour)", "capacity (req/s)");
        c.put("yMin", 0);
        c.put("xMin", 0);
        ArrayNode series = c.putArray("series");
        ArrayNode all = series.addObject().put("name", "measured").putArray("points");
        for (PlanResult.Verdict v : result.candidates()) {
            if (!Double.isNaN(v.capacityRps()) && v.capacityRps() > 0 && !result.frontier().contains(v.candidate())) {
                all.addArray().add(v.candidate().costUsdPerHour()).add(v.capacityRps());
            }
        }
        ArrayNode line = series.addObject().put("name", "frontier").put("line", true).putArray("points");
        result.frontier().forEach(f -> line.addArray().add(f.costUsdPerHour()).add(result.of(f).capacityRps()));
        if (result.recommended() != null) {
            ArrayNode r = series.addObject().put("name", "recommended: " + result.recommended().id()).put("symbolSize", 14)
                    .put("z", 4).putArray("points");
            PlanResult.Verdict v = result.of(result.recommended());
            r.addArray().add(v.candidate().costUsdPerHour()).add(v.capacityRps());
        }
        if (!spec.capacityOnly()) {
            c.putObject("hline").put("value", spec.targetRps()).put("name", "target " + PlanRounds.rateLabel(spec.targetRps()));
        }
        ((ArrayNode) s.get("charts")).add(c);
        return s;
    }

    private static ObjectNode slack(PlanSpec spec, PlanResult result) {
        List<Integer> budgets = spec.search().budgets();
        int full = budgets.get(budgets.size() - 1);
        ObjectNode s = Charts.section("target", "At the target rate", "Each candidate run on the full " + full
                + "-request trace at " + PlanRounds.rateLabel(spec.targetRps()) + " req/s: its SLO slack (the least of"
                + " bound / value over the SLOs, times the share of requests completed; 1 or more meets every one) against"
                + " its cost. The dashed line is slack 1.");
        ObjectNode c = Charts.chart("scatter", "SLO slack against cost per hour", "cost (USD per hour)", "SLO slack");
        c.put("xMin", 0);
        ArrayNode series = c.putArray("series");
        ArrayNode meets = series.addObject().put("name", "meets every SLO").putArray("points");
        ArrayNode misses = series.addObject().put("name", "misses one").putArray("points");
        for (PlanResult.Verdict v : result.candidates()) {
            if (v.outcome() != null && v.requests() == full) {
                double slack = Math.min(v.outcome().slack(spec.slos()), 10);
                (v.status().equals("feasible") ? meets : misses).addArray().add(v.candidate().costUsdPerHour()).add(slack);
            }
        }
        c.putObject("hline").put("value", 1).put("name", "slack 1");
        ((ArrayNode) s.get("charts")).add(c);
        return s;
    }

    private static ObjectNode table(PlanSpec spec, PlanResult result) {
        List<String> columns = new ArrayList<>(List.of("candidate", "status", "cost_usd_per_hour", "gpus", "trace_requests"));
        spec.slos().forEach(x -> columns.add(x.metric()));
        columns.addAll(List.of("slo_slack", "capacity_rps", "reason"));
        boolean[] text = new boolean[columns.size()];
        text[0] = true;
        text[1] = true;
        text[columns.size() - 1] = true;
        List<Object[]> rows = new ArrayList<>();
        for (PlanResult.Verdict v : result.candidates()) {
            List<Object> row = new ArrayList<>(List.of(v.candidate().id(), v.status()));
            row.add(v.candidate().costUsdPerHour());
            row.add(v.candidate().gpus());
            row.add(v.outcome() == null ? null : v.requests());
            spec.slos().forEach(x -> row.add(v.outcome() == null ? null : v.outcome().value(x.metric())));
            row.add(v.outcome() == null ? null : v.outcome().slack(spec.slos()));
            row.add(Double.isNaN(v.capacityRps()) ? null : v.capacityRps());
            row.add(v.reason());
            rows.add(row.toArray());
        }
        ObjectNode s = Charts.section("candidates", "Candidates", "Every candidate of the space and its verdict (the"
                + " candidates/ dataset); the SLO columns are its longest run at the target rate (its worst seed's).");
        s.set("table", Charts.table(columns, text, rows));
        return s;
    }
}
