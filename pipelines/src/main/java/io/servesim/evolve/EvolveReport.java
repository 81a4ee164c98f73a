package io.servesim.evolve;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.report.Charts;
import io.servesim.report.ReportFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A search's page ({@code report.html} in its output folder), drawn by the report's own page and script
 * ({@link ReportFile#writePage}, {@link Charts}): the convergence chart (every candidate's training fitness by
 * generation, each generation's best and the best so far), the best candidate against the baselines on both splits,
 * and the printed summary and best policy.
 */
final class EvolveReport {
    private EvolveReport() {
    }

    static void write(Path file, EvolveSpec spec, EvolveResult result, String summary, String bestPolicy) throws IOException {
        ObjectNode data = Charts.JSON.createObjectNode();
        data.put("meta", "evolve " + spec.name() + ": CMA-ES over " + spec.params().size() + " parameters, population "
                + spec.population() + ", fitness " + spec.fitnessText());
        ArrayNode sections = data.putArray("sections");
        sections.add(convergence(result));
        sections.add(comparison(result));
        ObjectNode out = Charts.section("files", "Files", "What the command printed and the best policy it wrote.");
        ArrayNode list = out.putArray("files");
        list.addObject().put("name", EvolveOutputs.SUMMARY_TEXT).put("text", summary);
        list.addObject().put("name", EvolveOutputs.BEST_POLICY).put("text", bestPolicy);
        sections.add(out);
        ReportFile.writePage(file, "servesim evolve: " + spec.name(), data);
    }

    private static ObjectNode convergence(EvolveResult result) {
        ObjectNode s = Charts.section("convergence", "Convergence", "Each point is a candidate's mean training fitness"
                + " (generation 0 is the start point); the lines join each generation's best and the best so far. A"
                + " candidate that could not run is left out.");
        ObjectNode c = Charts.chart("scatter", "Training fitness by generation", "generation", "fitness");
        c.put("xMin", 0);
        ArrayNode series = c.putArray("series");
        ArrayNode all = series.addObject().put("name", "candidates").putArray("points");
        ArrayNode genBest = series.addObject().put("name", "best of generation").put("line", true).putArray("points");
        ArrayNode soFar = series.addObject().put("name", "best so far").put("line", true).putArray("points");
        double best = Double.NEGATIVE_INFINITY;
        int gens = result.all().get(result.all().size() - 1).generation() + 1;
        for (int g = 0; g < gens; g++) {
            double top = Double.NEGATIVE_INFINITY;
            for (Evaluated e : result.all()) {
                if (e.generation() == g && e.score() != null) {
                    all.addArray().add(g).add(e.value());
                    top = Math.max(top, e.value());
                }
            }
            if (top > Double.NEGATIVE_INFINITY) {
                genBest.addArray().add(g).add(top);
                best = Math.max(best, top);
            }
            if (best > Double.NEGATIVE_INFINITY) {
                soFar.addArray().add(g).add(best);
            }
        }
        ((ArrayNode) s.get("charts")).add(c);
        return s;
    }

    private static ObjectNode comparison(EvolveResult result) {
        List<String> columns = List.of("policy", "train fitness", "held-out fitness");
        List<Object[]> rows = new ArrayList<>();
        result.train().forEach((label, score) -> {
            EvolveRounds.Score held = result.heldOut().get(label);
            rows.add(new Object[] {label, score == null ? null : score.fitness(), held == null ? null : held.fitness()});
        });
        ObjectNode s = Charts.section("comparison", "Best candidate against the baselines", "Mean fitness of the best"
                + " candidate (best) and of each baseline on the training split, searched on, and on the held-out split,"
                + " never searched on (the comparison/ dataset).");
        s.set("table", Charts.table(columns, new boolean[] {true, false, false}, rows));
        return s;
    }
}
