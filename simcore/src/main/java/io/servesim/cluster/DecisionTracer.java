package io.servesim.cluster;

import io.servesim.decisions.Candidate;
import io.servesim.decisions.Counterfactuals;
import io.servesim.decisions.DecisionKind;
import io.servesim.decisions.DecisionRecord;
import io.servesim.decisions.DecisionSink;
import io.servesim.decisions.Snapshot;
import io.servesim.decisions.TraceLevel;
import io.servesim.decisions.TraceOptions;
import io.servesim.engine.Request;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the control plane's decisions into {@link DecisionRecord}s for a traced run. It exists only
 * when tracing is on (the control plane holds {@code null} otherwise), so an untraced run builds no
 * record. Routing records copy what the policy saw ({@link TraceLevel#DETAILED}) and its top-K
 * candidates with the score regret ({@link TraceOptions#counterfactualK} &gt; 0) at decision time,
 * before the request changes the view; P/D runs record both pools' routing and each P/D decision. Scale records (the {@link Autoscaler}'s actions) carry the
 * policy's reason and, detailed, the {@link ScaleSignals} it saw.
 */
final class DecisionTracer {
    /** The policy names of a run, as its records name them. */
    record Names(String admission, String priority, String routing, String scheduler, String autoscale) {
    }

    private final DecisionSink sink;
    private final TraceOptions options;
    private final Names names;
    private final ClusterView view;
    private final RoutingPolicy routing;

    DecisionTracer(DecisionSink sink, TraceOptions options, Names names, ClusterView view, RoutingPolicy routing) {
        this.sink = sink;
        this.options = options;
        this.names = names;
        this.view = view;
        this.routing = routing;
    }

    void admission(Request r, AdmissionDecision d, long nowUs) {
        String outcome = d.kind().name().toLowerCase(java.util.Locale.ROOT);
        sink.accept(new DecisionRecord(nowUs, r.id(), DecisionKind.ADMISSION, names.admission(), outcome,
                d.reason() == null ? "" : d.reason(), -1, d.delayUs(), Double.NaN, List.of(), null));
    }

    void priority(Request r, long nowUs) {
        sink.accept(new DecisionRecord(nowUs, r.id(), DecisionKind.PRIORITY, names.priority(), "assigned", "", -1,
                r.priorityScore(), Double.NaN, List.of(), null));
    }

    void preemption(Request victim, int instance, long nowUs) {
        sink.accept(new DecisionRecord(nowUs, victim.id(), DecisionKind.PREEMPTION, names.scheduler(), "preempted", "",
                instance, victim.priorityScore(), Double.NaN, List.of(), null));
    }

    /**
     * Right after {@code routing.route(r, ...)} returned position {@code chosen} (instance id
     * {@code target}), before the request moves.
     */
    void routing(Request r, int chosen, int target, String reason, long nowUs) {
        routing(r, chosen, target, reason, nowUs, view, routing, names.routing());
    }

    /**
     * A routing decision of {@code policy} (named {@code policyName}) over {@code view} (a P/D pool's,
     * or the cluster's) that chose position {@code chosen}, instance id {@code target}. Candidates carry
     * instance ids; a policy without scores gets no candidates, no score and no regret, and its
     * record's reason says why.
     */
    void routing(Request r, int chosen, int target, String reason, long nowUs, ClusterView view, RoutingPolicy policy,
                 String policyName) {
        int n = view.instances();
        double[] scores = policy.lastScores();
        boolean scored = scores.length > 0;
        List<Candidate> candidates = new ArrayList<>();
        double regret = Double.NaN;
        if (scored && options.counterfactualK() > 0) {
            Map<String, double[]> parts = policy.lastBreakdown();
            for (int i : Counterfactuals.topK(scores, n, options.counterfactualK())) {
                Map<String, Double> breakdown = new LinkedHashMap<>();
                parts.forEach((k, v) -> breakdown.put(k, v[i]));
                candidates.add(new Candidate(view.id(i), scores[i], breakdown));
            }
            regret = Counterfactuals.scoreRegret(scores, n, chosen);
        }
        if (!scored) {
            String unscored = "unscored: " + policyName + " " + policy.unscoredBecause();
            reason = reason.isEmpty() ? unscored : reason + "; " + unscored;
        }
        Snapshot snapshot = options.level() == TraceLevel.DETAILED ? snapshot(r, n, view, policy) : null;
        sink.accept(new DecisionRecord(nowUs, r.id(), DecisionKind.ROUTING, policyName, "routed", reason, target,
                scored ? scores[chosen] : Double.NaN, regret, candidates, snapshot));
    }

    /** A P/D decision: {@code outcome} {@code remote} (prefill on the prefill pool) or {@code local}, with its reason. */
    void disaggregation(Request r, String decider, String outcome, String reason, int uncachedTokens, long nowUs) {
        sink.accept(new DecisionRecord(nowUs, r.id(), DecisionKind.DISAGGREGATION, decider, outcome, reason, -1,
                uncachedTokens, Double.NaN, List.of(), null));
    }

    /**
     * A scale check whose policy asked for {@code desired} replicas while {@code from} were ready or
     * starting; {@code to} after the action (the bounds and free slots may have clamped it).
     */
    void scale(long nowUs, ScaleSignals s, int desired, int from, int to, String reason) {
        String outcome = to > from ? "scale_up" : to < from ? "scale_down" : "clamped";
        if (to != desired) {
            reason += "; clamped " + desired + " -> " + to + " (bounds " + s.minReplicas() + ".." + s.maxReplicas() + ")";
        }
        Snapshot snapshot = options.level() == TraceLevel.DETAILED ? Snapshot.ofSignals(s.toMap()) : null;
        sink.accept(new DecisionRecord(nowUs, -1, DecisionKind.SCALE, names.autoscale(), outcome, reason, -1, desired,
                Double.NaN, List.of(), snapshot, from, to));
    }

    private static Snapshot snapshot(Request r, int n, ClusterView view, RoutingPolicy routing) {
        int[] ids = new int[n];
        double[] loads = new double[n];
        double[] kv = new double[n];
        for (int i = 0; i < n; i++) {
            ids[i] = view.id(i);
            loads[i] = view.queueDepth(i) + view.running(i) + view.inTransit(i);
            kv[i] = view.kvUtilization(i);
        }
        Map<String, double[]> scores = new LinkedHashMap<>();
        routing.lastBreakdown().forEach((k, v) -> scores.put(k, java.util.Arrays.copyOf(v, n)));
        int[] overlap = view.prefixOverlapKnown() ? java.util.Arrays.copyOf(view.prefixOverlapBlocks(r), n) : null;
        return new Snapshot(ids, loads, kv, overlap, scores, Map.of());
    }
}
