package io.servesim.decisions;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A run's decisions in brief, for reflection by an LLM (BLIS macro plan, PR 18 {@code TraceSummary}:
 * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md};
 * GEPA's {@code make_reflective_dataset} feeds it back as feedback): decision counts per policy and
 * outcome, the routing target distribution, score regret, the worst decisions with their context,
 * admission rejections by reason, preemption victims by priority, the autoscaler's scale actions and,
 * when the run re-simulated samples, realized regret. {@link #text()} is the block meant for a prompt.
 *
 * @param decisions     decisions recorded
 * @param byPolicy      "kind/policy" -> decisions
 * @param byOutcome     "kind/outcome" -> decisions
 * @param targets       instance -> routing decisions sent to it
 * @param meanRegret    mean score regret of routing decisions with scores (NaN if none)
 * @param p99Regret     nearest-rank p99 of the same (NaN if none)
 * @param scoredRoutings routing decisions with a score regret
 * @param worst         decisions of highest score regret, worst first
 * @param rejections    admission rejection reason -> rejections
 * @param victims       preempted request's priority score -> preemptions
 * @param scaleActions  the autoscaler's scale decisions, in time order (empty without autoscaling)
 * @param realized      re-simulated alternatives ({@code --counterfactual-sample}); empty when not sampled
 */
public record TraceSummary(long decisions, Map<String, Long> byPolicy, Map<String, Long> byOutcome,
                           Map<Integer, Long> targets, double meanRegret, double p99Regret, long scoredRoutings,
                           List<DecisionRecord> worst, Map<String, Long> rejections, Map<String, Long> victims,
                           List<DecisionRecord> scaleActions, List<RealizedRegret> realized) {
    /** Scale actions the text block lists (the first ones; the JSON has them all). */
    public static final int SCALE_ACTIONS_IN_TEXT = 10;

    public TraceSummary {
        worst = List.copyOf(worst);
        scaleActions = List.copyOf(scaleActions);
        realized = List.copyOf(realized);
    }

    /** This summary with the re-simulated alternatives added. */
    public TraceSummary withRealized(List<RealizedRegret> r) {
        return new TraceSummary(decisions, byPolicy, byOutcome, targets, meanRegret, p99Regret, scoredRoutings, worst,
                rejections, victims, scaleActions, r);
    }

    /** The re-simulated alternatives whose outcome contradicts the policy's scores. */
    public List<RealizedRegret> disagreements() {
        return realized.stream().filter(RealizedRegret::disagrees).toList();
    }

    /** For the run's JSON: the counts and statistics as plain maps, and {@link #text()} under {@code text}. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("decisions", decisions);
        m.put("by_policy", byPolicy);
        m.put("by_outcome", byOutcome);
        Map<String, Long> t = new LinkedHashMap<>();
        targets.forEach((k, v) -> t.put(Integer.toString(k), v));
        m.put("target_distribution", t);
        m.put("scored_routings", scoredRoutings);
        m.put("mean_score_regret", meanRegret);
        m.put("p99_score_regret", p99Regret);
        m.put("worst_decisions", worst.stream().map(TraceSummary::context).toList());
        m.put("rejections_by_reason", rejections);
        m.put("preemption_victims_by_priority", victims);
        if (!scaleActions.isEmpty()) {
            m.put("scale_actions", scaleActions.stream().map(TraceSummary::scaleMap).toList());
        }
        if (!realized.isEmpty()) {
            m.put("realized_regret", realized.stream().map(TraceSummary::realizedMap).toList());
            m.put("disagreements", disagreements().size());
        }
        m.put("text", text());
        return m;
    }

    /** A compact plain-text block (a few lines per section) to paste into an LLM prompt. */
    public String text() {
        List<String> lines = new ArrayList<>();
        lines.add("decisions: " + decisions + " " + byPolicy);
        lines.add("outcomes: " + byOutcome);
        lines.add("routing targets (instance=count): " + targets);
        lines.add(scoredRoutings == 0 ? "score regret: n/a (no scored routing decisions)"
                : "score regret (best alternative - chosen): mean " + number(meanRegret) + ", p99 " + number(p99Regret)
                        + " over " + scoredRoutings + " routings");
        // a router that took its top score every time has no decision worse than its alternatives: its "worst" are
        // its closest calls, a regret of 0 being a tie it broke
        boolean tookTop = !worst.isEmpty() && worst.get(0).scoreRegret() <= 0;
        if (tookTop) {
            lines.add("  every routing took its top score; the closest calls (regret 0: a tie the router broke):");
        }
        for (DecisionRecord d : worst) {
            lines.add((tookTop ? "  closest: " : "  worst: ") + contextLine(d));
        }
        lines.add("admission rejections by reason: " + rejections);
        lines.add("preemption victims by priority: " + victims);
        if (!scaleActions.isEmpty()) {
            lines.add("scale actions: " + scaleActions.size());
            for (DecisionRecord d : scaleActions.subList(0, Math.min(SCALE_ACTIONS_IN_TEXT, scaleActions.size()))) {
                lines.add("  at " + number(d.timeUs() / 1e6) + " s " + d.outcome() + " " + d.fromReplicas() + " -> "
                        + d.toReplicas() + " replicas: " + d.reason());
            }
            if (scaleActions.size() > SCALE_ACTIONS_IN_TEXT) {
                lines.add("  ... " + (scaleActions.size() - SCALE_ACTIONS_IN_TEXT) + " more");
            }
        }
        if (!realized.isEmpty()) {
            lines.add("realized regret: " + realized.size() + " re-simulated alternatives, " + disagreements().size()
                    + " disagree with the scores");
            for (RealizedRegret r : disagreements()) {
                lines.add("  disagree: request " + r.requestId() + " at " + r.timeUs() + " us: instance " + r.alternative()
                        + " scored " + number(r.scoreDelta()) + " vs chosen " + r.chosen() + " but TTFT gain "
                        + number(r.requestTtftGainMs()) + " ms (cluster " + number(r.clusterTtftGainMs()) + " ms)");
            }
        }
        return String.join("\n", lines);
    }

    private static String contextLine(DecisionRecord d) {
        StringBuilder s = new StringBuilder("request " + d.requestId() + " at " + d.timeUs() + " us -> instance "
                + d.instance() + " (score " + number(d.value()) + ", regret " + number(d.scoreRegret()) + "); candidates");
        for (Candidate c : d.candidates()) {
            s.append(' ').append(c.instance()).append('=').append(number(c.score()));
        }
        if (d.snapshot() != null) {
            s.append("; loads ").append(java.util.Arrays.toString(d.snapshot().loads()));
        }
        return s.toString();
    }

    private static Map<String, Object> context(DecisionRecord d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("request_id", d.requestId());
        m.put("time_us", d.timeUs());
        m.put("policy", d.policy());
        m.put("instance", d.instance());
        m.put("score", d.value());
        m.put("score_regret", d.scoreRegret());
        m.put("candidates", d.candidates().stream().map(c -> {
            Map<String, Object> cm = new LinkedHashMap<>();
            cm.put("instance", c.instance());
            cm.put("score", c.score());
            cm.put("breakdown", new java.util.TreeMap<>(c.breakdown()));
            return cm;
        }).toList());
        return m;
    }

    private static Map<String, Object> scaleMap(DecisionRecord d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("time_us", d.timeUs());
        m.put("outcome", d.outcome());
        m.put("from_replicas", d.fromReplicas());
        m.put("to_replicas", d.toReplicas());
        m.put("desired_replicas", d.value());
        m.put("reason", d.reason());
        return m;
    }

    private static Map<String, Object> realizedMap(RealizedRegret r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("request_id", r.requestId());
        m.put("time_us", r.timeUs());
        m.put("chosen", r.chosen());
        m.put("alternative", r.alternative());
        m.put("score_delta", r.scoreDelta());
        m.put("request_ttft_gain_ms", r.requestTtftGainMs());
        m.put("cluster_ttft_gain_ms", r.clusterTtftGainMs());
        m.put("disagrees", r.disagrees());
        return m;
    }

    /** Four significant digits, locale-independent. */
    static String number(double x) {
        return String.format(Locale.ROOT, "%.4g", x);
    }
}
