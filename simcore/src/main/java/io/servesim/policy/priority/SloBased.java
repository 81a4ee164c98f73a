package io.servesim.policy.priority;

import io.servesim.cluster.PriorityPolicy;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import io.servesim.slo.SloTargets;

/**
 * {@code slo-based {class_scores, default_score, age_weight}} (BLIS {@code sim/priority.go}): the
 * class score of the request's SLO class + the workload's per-request priority + age_weight x age in
 * seconds ({@link ScoredPriority}). Default class scores, the classes' importance: realtime 10,
 * interactive 5, standard 3, batch 1, background 0.
 */
final class SloBased extends ScoredPriority {
    /** Default class scores: the classes' importance. */
    static final Params PARAMS = params("slo-based", "class_scores", SloTargets.DEFAULT_CLASS_IMPORTANCE, false);

    private SloBased(PolicySpec spec) {
        super(spec, PARAMS, 1);
    }

    static PriorityPolicy create(PolicySpec spec, PolicyContext ctx) {
        return new SloBased(spec);
    }
}
