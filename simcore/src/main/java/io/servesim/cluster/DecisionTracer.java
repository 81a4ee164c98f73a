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
 * before the request changes the view.
 */
final class DecisionTracer {
    /** The policy names of a run, as its records name them. */
    record Names(String admission, String priority, String routing, String scheduler) {
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

    /** Right after {@code routing.route(r, ...)} returned {@code target}, before the request moves. */
    void routing(Request r, int target, String reason, long nowUs) {
        double[] scores = routing.lastScores();
        boolean scored = scores.length == view.instances();
        List<Candidate> candidates = new ArrayList<>();
        double regret = Double.NaN;
        if (scored && options.counterfactualK() > 0) {
            Map<String, double[]> parts = routing.lastBreakdown();
            for (int i : Counterfactuals.topK(scores, options.counterfactualK())) {
                Map<String, Double> breakdown = new LinkedHashMap<>();
                parts.forEach((k, v) -> breakdown.put(k, v[i]));
                candidates.add(new Candidate(i, scores[i], breakdown));
            }
            regret = Counterfactuals.scoreRegret(scores, target);
        }
        Snapshot snapshot = options.level() == TraceLevel.DETAILED ? snapshot(r) : null;
        sink.accept(new DecisionRecord(nowUs, r.id(), DecisionKind.ROUTING, names.routing(), "routed", reason, target,
                scored ? scores[target] : Double.NaN, regret, candidates, snapshot));
    }

    private Snapshot snapshot(Request r) {
        int n = view.instances();
        double[] loads = new double[n];
        double[] kv = new double[n];
        for (int i = 0; i < n; i++) {
            loads[i] = view.queueDepth(i) + view.running(i) + view.inTransit(i);
            kv[i] = view.kvUtilization(i);
        }
        Map<String, double[]> scores = new LinkedHashMap<>();
        routing.lastBreakdown().forEach((k, v) -> scores.put(k, v.clone()));
        return new Snapshot(loads, kv, view.prefixOverlapBlocks(r).clone(), scores);
    }
}
