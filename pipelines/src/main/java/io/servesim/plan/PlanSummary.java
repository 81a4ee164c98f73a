package io.servesim.plan;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one screen a plan prints on stdout (and keeps as {@code summary.txt}): the question, what the search ran and
 * left out, the answer (the recommended candidate, its run at the target and its capacity) or, when no candidate meets
 * every SLO, which objectives none met and the closest candidate; then the frontier and where the files are.
 */
final class PlanSummary {
    private static final int FRONTIER_ROWS = 8;
    /**
     * Below this slack (the least of bound / value over the SLOs) an answer resting on one seed is called thin: a p99 of
     * 2,000 requests rests on its 20 slowest, which another seed's trace moves by a few percent.
     */
    static final double THIN_SLACK = 1.05;
    /** What a capacity below the grid's first rate says, and what an already complete search's summary is read for. */
    static final String NO_RATE_MET = "no rate of the grid met every SLO";

    private PlanSummary() {
    }

    static String text(PlanSpec spec, PlanResult result, Results results, int invalid, int rounds, int cells, Path dir) {
        StringBuilder out = new StringBuilder();
        List<Integer> budgets = spec.search().budgets();
        int full = budgets.get(budgets.size() - 1);
        String slos = String.join(", ", spec.slos().stream().map(Slo::toString).toList());
        if (spec.capacityOnly()) {
            return capacity(spec, result, results, rounds, cells, full, slos, dir);
        }
        out.append(String.format(Locale.ROOT, "plan %s: %s req/s within %s (and %s)%n", spec.name(),
                PlanRounds.rateLabel(spec.targetRps()), slos, Outcome.SERVED));
        Map<String, Integer> byStatus = new LinkedHashMap<>();
        result.candidates().forEach(v -> byStatus.merge(v.status(), 1, Integer::sum));
        List<String> statuses = new ArrayList<>();
        byStatus.forEach((s, n) -> statuses.add(n + " " + s));
        out.append(String.format(Locale.ROOT, "searched %d candidates in %d rounds of %d runs (traces of %s requests): %s%n",
                spec.candidates().size(), rounds, cells, String.join("/", budgets.stream().map(String::valueOf).toList()),
                String.join(", ", statuses)));
        Candidate r = result.recommended();
        if (r != null) {
            PlanResult.Verdict v = result.of(r);
            out.append(String.format(Locale.ROOT, "recommended: %s: %d x %s (TP %d, %s), %.2f USD per hour%n", r.id(),
                    r.gpus(), r.gpu(), r.tp(), fleet(r), r.costUsdPerHour()));
            out.append(String.format(Locale.ROOT, "  at %s req/s on %d requests: %s%n", PlanRounds.rateLabel(spec.targetRps()),
                    full, values(spec, v.outcome())));
            out.append("  capacity: ").append(capacity(spec, v)).append('\n');
            double slack = v.outcome().slack(spec.slos());
            if (spec.seeds().size() == 1 && slack < THIN_SLACK) {
                out.append(String.format(Locale.ROOT, "  note: it meets the SLOs with %.1f%% to spare on one seed; with"
                        + " seeds: [1, 2, 3] in the plan a rate counts as met only when every seed meets it%n",
                        (slack - 1) * 100));
            }
            if (spec.seeds().size() > 1) {
                out.append(String.format(Locale.ROOT, "  note: each value is the worst of the %d seeds' runs; recommended.yaml"
                        + " runs seed %d, whose values may be better%n", spec.seeds().size(), spec.seeds().get(0)));
            }
            if (results.isUncalibrated(r.index())) {
                out.append("  note: the latency model is uncalibrated on ").append(r.gpu()).append(": no GEMM or engine-step"
                        + " measurement of it was used to obtain it, so its step times are estimates from the GPU's row\n");
            }
        } else {
            out.append(String.format(Locale.ROOT, "no candidate meets every objective at %s req/s on %d requests: %s%n",
                    PlanRounds.rateLabel(spec.targetRps()), full, result.unmet().isEmpty()
                            ? "each was met by some candidate, never all at once"
                            : "no candidate met " + String.join(", ", result.unmet())));
            if (result.closest() != null) {
                Candidate c = result.closest();
                Outcome o = results.get(c.index(), spec.targetRps(), full);
                out.append(String.format(Locale.ROOT, "closest: %s (%d x %s, %.2f USD per hour): misses %s; %s%n", c.id(),
                        c.gpus(), c.gpu(), c.costUsdPerHour(), String.join(", ", o.missed(spec.slos())), values(spec, o)));
            }
        }
        if (!result.frontier().isEmpty()) {
            out.append("frontier (cost per hour -> capacity):\n");
            for (int i = 0; i < Math.min(FRONTIER_ROWS, result.frontier().size()); i++) {
                Candidate f = result.frontier().get(i);
                out.append(String.format(Locale.ROOT, "  %8.2f USD/h  %8s req/s  %s%s%n", f.costUsdPerHour(),
                        PlanRounds.rateLabel(result.of(f).capacityRps()) + (result.of(f).capped() ? "+" : ""), f.id(),
                        f.equals(r) ? "  <- recommended" : ""));
            }
            if (result.frontier().size() > FRONTIER_ROWS) {
                out.append("  ... ").append(result.frontier().size() - FRONTIER_ROWS).append(" more in frontier/\n");
            }
        }
        out.append("written: ").append(dir).append("/ (").append(r != null ? "recommended.yaml, " + LaunchCommand.of(spec, r).file() + ", " : "")
                .append("candidates/, frontier/, rounds/, report.html)").append('\n');
        if (invalid > 0) {
            out.append(invalid).append(" candidates cannot run (their reason is in candidates/)\n");
        }
        failures(results, out);
        return out.toString();
    }

    private static String capacity(PlanSpec spec, PlanResult result, Results results, int rounds, int cells, int full,
                                   String slos, Path dir) {
        PlanResult.Verdict v = result.candidates().get(0);
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "capacity: %s within %s (and %s), on %d requests%n", capacity(spec, v), slos,
                Outcome.SERVED, full));
        if (v.capacityRps() > 0) {
            Outcome at = results.get(0, v.capacityRps(), full);
            out.append(String.format(Locale.ROOT, "  at %s req/s: %s%n", PlanRounds.rateLabel(v.capacityRps()), values(spec, at)));
        }
        if (!Double.isNaN(v.missRps())) {
            Outcome miss = results.get(0, v.missRps(), full);
            out.append(String.format(Locale.ROOT, "  at %s req/s: misses %s; %s%n", PlanRounds.rateLabel(v.missRps()),
                    String.join(", ", miss.missed(spec.slos())), values(spec, miss)));
        }
        if (results.latencyModel(0) != null) {
            out.append("  latency model: ").append(results.latencyModel(0)).append('\n');
        }
        if (results.isUncalibrated(0)) {
            out.append("  note: the latency model is uncalibrated on ").append(spec.candidates().get(0).gpu()).append(": no GEMM"
                    + " or engine-step measurement of it was used to obtain it, so its step times are estimates from the GPU's row\n");
        }
        out.append(String.format(Locale.ROOT, "searched in %d rounds of %d runs; written: %s/%n", rounds, cells, dir));
        failures(results, out);
        return out.toString();
    }

    /** A line when runs failed: each counted as missing its SLOs, its error kept. */
    private static void failures(Results results, StringBuilder out) {
        if (results.failures() > 0) {
            out.append(results.failures()).append(" runs failed and count as missing their SLOs; their errors are in")
                    .append(" rounds/*/errors/\n");
        }
    }

    /** {@code 27.36 req/s (27.84 misses; grid step 0.48)}. */
    private static String capacity(PlanSpec spec, PlanResult.Verdict v) {
        if (Double.isNaN(v.capacityRps())) {
            return "not measured";
        }
        String tol = PlanRounds.rateLabel(spec.search().toleranceRps());
        if (v.capped()) {
            return "at least " + PlanRounds.rateLabel(v.capacityRps()) + " req/s (every rate up to "
                    + (spec.capacityOnly() ? "--max-rate" : "max_rps") + " met the SLOs)";
        }
        if (v.capacityRps() == 0) {
            return "below " + tol + " req/s (" + NO_RATE_MET + ")";
        }
        return PlanRounds.rateLabel(v.capacityRps()) + " req/s (" + PlanRounds.rateLabel(v.missRps()) + " misses; grid step "
                + tol + ")";
    }

    /** {@code ttft_p99_ms 412.3, tpot_p90_ms 38.2, 2000/2000 completed}. */
    private static String values(PlanSpec spec, Outcome o) {
        if (o == null) {
            return "no run";
        }
        if (o.failure() != null) {
            return "the run failed: " + o.failure();
        }
        List<String> parts = new ArrayList<>();
        spec.slos().forEach(s -> parts.add(s.metric() + " " + (o.value(s.metric()) == null ? "none"
                : String.format(Locale.ROOT, s.atMost() ? "%.1f" : "%.3f", o.value(s.metric())))));
        parts.add(o.completed() + "/" + o.injected() + " completed");
        if (spec.seeds().size() > 1) {
            parts.add("the worst of " + spec.seeds().size() + " seeds"); // Outcome.worst: each value the worst seed's
        }
        return String.join(", ", parts);
    }

    private static String fleet(Candidate c) {
        if (c.fleet() instanceof Fleet.Disaggregated d) {
            return d.prefill() + " prefill + " + d.decode() + " decode replicas";
        }
        if (c.fleet() instanceof Fleet.DataParallel dp) {
            return dp.ranks() + " data-parallel ranks" + (dp.expertParallel() ? ", expert-parallel" : "");
        }
        return c.fleet().instances() + (c.fleet().instances() == 1 ? " replica" : " replicas");
    }
}
