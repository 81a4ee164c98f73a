package io.servesim.fidelity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@link Sim2RealStudy} as aligned plain-text tables, one per mean (E2E, TTFT, ITL): per experiment the real mean,
 * servesim's, and the signed error % of servesim and of every peer that predicted it; last, each column's median
 * |error| over the experiments it has a number for, and how many those are.
 */
public final class Sim2RealTable {
    /** The study's peer simulators in its order, with the short names the table heads them by. */
    static final Map<String, String> PEERS = peers();

    private Sim2RealTable() {
    }

    private static Map<String, String> peers() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("blis-roofline", "BLIS-roof");
        m.put("blis-evolved", "BLIS-evol");
        m.put("vidur", "Vidur");
        m.put("aiconfigurator-estimate", "AIConfig");
        m.put("llm-optimizer-estimate", "llm-optim");
        return m;
    }

    /** The tables. */
    public static String render(Sim2RealStudy study) {
        List<String> peers = PEERS.keySet().stream().filter(p -> study.rows().stream()
                .anyMatch(r -> !Double.isNaN(study.peerError(r.experiment(), p, "e2e_mean")))).toList();
        int nameWidth = Math.max(14, study.rows().stream().mapToInt(r -> r.experiment().length()).max().orElse(0));
        StringBuilder b = new StringBuilder();
        b.append("sim-to-real study, trainval set (inference-sim/sim-to-real-accuracy-validation @ dcec3fd; real vLLM 0.15.1"
                + " on H100): error % of whole-run means, servesim = the roofline on the shipped configs\n");
        for (Sim2RealStudy.Row r : study.rows()) {
            if (r.completed() != r.injected()) {
                b.append(String.format(Locale.ROOT, "note: %s: %d of %d requests completed; means over those%n",
                        r.experiment(), r.completed(), r.injected()));
            }
        }
        for (String metric : StudyMeans.METRICS) {
            String label = metric.substring(0, metric.indexOf('_')).toUpperCase(Locale.ROOT) + " mean";
            b.append('\n');
            StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-" + nameWidth + "s %10s %11s %9s", label,
                    "real ms", "servesim ms", "servesim"));
            peers.forEach(p -> head.append(String.format(Locale.ROOT, " %9s", PEERS.get(p))));
            b.append(head.toString().stripTrailing()).append('\n');
            List<List<Double>> errors = new ArrayList<>();
            for (int c = 0; c <= peers.size(); c++) {
                errors.add(new ArrayList<>());
            }
            for (Sim2RealStudy.Row r : study.rows()) {
                double actual = study.means().actual().get(r.experiment()).get(metric);
                double own = study.servesimError(r, metric);
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-" + nameWidth + "s %10.1f %11.1f %9s",
                        r.experiment(), actual, r.mean(metric), signed(own)));
                add(errors.get(0), own);
                for (int c = 0; c < peers.size(); c++) {
                    double e = study.peerError(r.experiment(), peers.get(c), metric);
                    line.append(String.format(Locale.ROOT, " %9s", signed(e)));
                    add(errors.get(c + 1), e);
                }
                b.append(line).append('\n');
            }
            StringBuilder median = new StringBuilder(String.format(Locale.ROOT, "%-" + nameWidth + "s %10s %11s", "median |error|", "", ""));
            StringBuilder count = new StringBuilder(String.format(Locale.ROOT, "%-" + nameWidth + "s %10s %11s", "experiments", "", ""));
            for (List<Double> col : errors) {
                median.append(String.format(Locale.ROOT, " %9s", col.isEmpty() ? "-"
                        : String.format(Locale.ROOT, "%.1f%%", LatencyValidation.quantile(col, 0.5))));
                count.append(String.format(Locale.ROOT, " %9d", col.size()));
            }
            b.append(median).append('\n').append(count).append('\n');
        }
        return b.toString();
    }

    private static void add(List<Double> column, double signedError) {
        if (!Double.isNaN(signedError)) {
            column.add(Math.abs(signedError));
        }
    }

    private static String signed(double e) {
        return Double.isNaN(e) ? "-" : String.format(Locale.ROOT, "%+.1f%%", e);
    }
}
