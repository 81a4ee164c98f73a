package io.servesim.decisions;

import java.util.List;

/**
 * One policy decision of a run, for decision traces (BLIS macro plan, PR 17 and PR 18:
 * {@code DecisionTrace}, {@code RoutingRecord}, {@code TopKCandidates}; inference-sim/inference-sim
 * @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}).
 *
 * @param timeUs      decision time, microseconds of simulated time
 * @param requestId   request decided on; -1 for scale decisions
 * @param kind        what was decided
 * @param policy      the deciding policy's template name (the scheduler's for preemptions)
 * @param outcome     {@code admit}, {@code reject} or {@code delay} (admission); {@code assigned}
 *                    (priority); {@code routed} (routing); {@code preempted} (preemption);
 *                    {@code scale_up}, {@code scale_down} or {@code clamped} (scale: the bounds left nothing to do)
 * @param reason      the policy's reason (admission, scale); routing: why it was routed again
 *                    ({@code drained from instance N}) and, for a policy without scores, that it has none; or empty
 * @param instance    instance routed to or preempted on; -1 for admission and priority
 * @param value       admission: delay in microseconds for {@code delay}, else 0; priority: the score
 *                    assigned; routing: the chosen instance's score (NaN when the policy has none);
 *                    preemption: the victim's priority score; scale: the replicas the policy asked for, before clamping
 * @param scoreRegret routing: best alternative's score - chosen score ({@link Counterfactuals#scoreRegret});
 *                    NaN when not computed (no counterfactuals, a policy without scores, other kinds)
 * @param candidates  routing: the top-K instances by score, best first (empty unless counterfactuals are on)
 * @param snapshot    routing and scale at {@link TraceLevel#DETAILED}: what the policy saw; otherwise {@code null}
 * @param fromReplicas scale: ready + starting replicas before the action; -1 for other kinds
 * @param toReplicas   scale: ready + starting replicas after it; -1 for other kinds
 */
public record DecisionRecord(long timeUs, long requestId, DecisionKind kind, String policy, String outcome,
                             String reason, int instance, double value, double scoreRegret,
                             List<Candidate> candidates, Snapshot snapshot, int fromReplicas, int toReplicas) {
    public DecisionRecord {
        candidates = List.copyOf(candidates);
    }

    /** A decision about a request (every kind but {@link DecisionKind#SCALE}). */
    public DecisionRecord(long timeUs, long requestId, DecisionKind kind, String policy, String outcome, String reason,
                          int instance, double value, double scoreRegret, List<Candidate> candidates, Snapshot snapshot) {
        this(timeUs, requestId, kind, policy, outcome, reason, instance, value, scoreRegret, candidates, snapshot, -1, -1);
    }
}
