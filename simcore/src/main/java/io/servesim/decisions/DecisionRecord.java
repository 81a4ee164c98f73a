package io.servesim.decisions;

import java.util.List;

/**
 * One policy decision of a run, for decision traces (BLIS policy-optimization plan, PR 17-18:
 * {@code DecisionTrace}, {@code RoutingRecord}, {@code TopKCandidates}).
 *
 * @param timeUs      decision time, microseconds of simulated time
 * @param requestId   request decided on
 * @param kind        what was decided
 * @param policy      the deciding policy's template name (the scheduler's for preemptions)
 * @param outcome     {@code admit}, {@code reject} or {@code delay} (admission); {@code assigned}
 *                    (priority); {@code routed} (routing); {@code preempted} (preemption)
 * @param reason      the policy's reason (admission), or empty
 * @param instance    instance routed to or preempted on; -1 for admission and priority
 * @param value       admission: delay in microseconds for {@code delay}, else 0; priority: the score
 *                    assigned; routing: the chosen instance's score (NaN when the policy has none);
 *                    preemption: the victim's priority score
 * @param scoreRegret routing: best alternative's score - chosen score ({@link Counterfactuals#scoreRegret});
 *                    NaN when not computed (no counterfactuals, a policy without scores, other kinds)
 * @param candidates  routing: the top-K instances by score, best first (empty unless counterfactuals are on)
 * @param snapshot    routing at {@link TraceLevel#DETAILED}: what the policy saw; otherwise {@code null}
 */
public record DecisionRecord(long timeUs, long requestId, DecisionKind kind, String policy, String outcome,
                             String reason, int instance, double value, double scoreRegret,
                             List<Candidate> candidates, Snapshot snapshot) {
    public DecisionRecord {
        candidates = List.copyOf(candidates);
    }
}
