package io.servesim.evolve;

import io.servesim.sweep.RoundsLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The text {@code servesim evolve} prints (and keeps as {@code summary.txt}): what was searched, the best candidate
 * and its parameters, the best against each baseline on the training and the held-out split, and whether it beats
 * every baseline on each.
 */
final class EvolveSummary {
    private EvolveSummary() {
    }

    static String text(EvolveSpec spec, EvolveResult r, int generations, int cells, Path dir) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "search %s: CMA-ES over %d parameters, population %d, %d generations (the"
                        + " start point, then up to %d), %d candidates, %d runs%n", spec.name(), spec.params().size(),
                spec.population(), generations, spec.generations(), r.all().size(), cells));
        sb.append(String.format(Locale.ROOT, "fitness %s: mean over %d training runs (%s x seeds %s), higher is better%n",
                spec.fitnessText(), spec.train().runs(), String.join(", ", spec.train().workloads().keySet()),
                spec.train().seeds()));
        Evaluated best = r.best();
        sb.append(String.format(Locale.ROOT, "best: %s (generation %d), training fitness %s%n", best.label(),
                best.generation(), fitness(best.value())));
        for (int i = 0; i < spec.params().size(); i++) {
            Param p = spec.params().get(i);
            sb.append(String.format(Locale.ROOT, "  %s = %s%s (searched in [%s, %s] from %s)%n", p.name(),
                    num(p.effective(best.x()[i])), p.type() == Param.Type.SECONDS ? " s" : "", num(p.min()), num(p.max()),
                    num(p.effective(p.start()))));
        }
        // columns as wide as their longest entry: a baseline's label or a "(1 failed)" note keeps the numbers aligned
        int labels = "policy".length();
        int train = "train fitness".length();
        int heldOut = "held-out fitness".length();
        for (String label : r.train().keySet()) {
            labels = Math.max(labels, label.length());
            train = Math.max(train, fitness(r.train().get(label)).length());
            heldOut = Math.max(heldOut, fitness(r.heldOut().get(label)).length());
        }
        String row = "%-" + labels + "s %" + train + "s %" + heldOut + "s%n";
        sb.append(String.format(Locale.ROOT, "%n" + row, "policy", "train fitness", "held-out fitness"));
        for (String label : r.train().keySet()) {
            sb.append(String.format(Locale.ROOT, row, label, fitness(r.train().get(label)), fitness(r.heldOut().get(label))));
        }
        if (!spec.baselines().isEmpty()) {
            sb.append(verdict("training", r.train())).append(verdict("held-out", r.heldOut()));
        }
        for (String u : r.unfinished()) {
            sb.append("did not finish: ").append(u).append(" (error rows: ").append(dir.resolve(RoundsLayout.ROUNDS))
                    .append("/*/errors/)\n");
        }
        sb.append(String.format(Locale.ROOT, "%nbest policy: %s (--policy-config); every candidate: %s/; report: %s%n",
                dir.resolve(EvolveOutputs.BEST_POLICY), dir.resolve(EvolveOutputs.GENERATIONS),
                dir.resolve(EvolveOutputs.REPORT)));
        return sb.toString();
    }

    /**
     * Whether the best beats every baseline on a split, and which do not lose to it; a policy that did not finish every
     * run of the split (a failed run scores 0) is compared with nothing, and named.
     */
    private static String verdict(String split, Map<String, EvolveRounds.Score> scores) {
        EvolveRounds.Score best = scores.get(EvolveRounds.BEST);
        if (best == null || best.failed() > 0) {
            return "on the " + split + " split the best candidate did not finish every run: no verdict\n";
        }
        List<String> unfinished = scores.entrySet().stream().filter(e -> !e.getKey().equals(EvolveRounds.BEST)
                && (e.getValue() == null || e.getValue().failed() > 0)).map(Map.Entry::getKey).toList();
        List<String> notBeaten = scores.entrySet().stream().filter(e -> !e.getKey().equals(EvolveRounds.BEST)
                && e.getValue() != null && e.getValue().failed() == 0 && e.getValue().fitness() >= best.fitness())
                .map(Map.Entry::getKey).toList();
        String verdict = notBeaten.isEmpty()
                ? "on the " + split + " split the best candidate beats every baseline" + (unfinished.isEmpty() ? "" : " that finished")
                : "on the " + split + " split the best candidate does not beat " + String.join(", ", notBeaten);
        return verdict + (unfinished.isEmpty() ? "" : "; not compared, runs failed: " + String.join(", ", unfinished)) + "\n";
    }

    private static String fitness(EvolveRounds.Score s) {
        return s == null ? "-" : fitness(s.fitness()) + (s.failed() > 0 ? " (" + s.failed() + " failed)" : "");
    }

    /** A fitness as the summary (and best-policy.yaml's header) shows every one: 4 decimals. */
    static String fitness(double x) {
        return String.format(Locale.ROOT, "%.4f", x);
    }

    /** Five decimals (trailing zeros dropped), as the summary shows a parameter and its bounds. */
    static String num(double x) {
        return String.format(Locale.ROOT, "%.5f", x).replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
