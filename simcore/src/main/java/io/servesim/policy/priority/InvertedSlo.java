package io.servesim.policy.priority;

import io.servesim.cluster.PriorityPolicy;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import io.servesim.slo.SloTargets;

/**
 * {@code inverted-slo {class_scores, default_score, age_weight}}: the negated {@link SloBased} score,
 * a pathological template (batch and young requests first).
 */
final class InvertedSlo extends ScoredPriority {
    static final Params PARAMS = params("inverted-slo", "class_scores", SloTargets.DEFAULT_CLASS_IMPORTANCE, false);

    private InvertedSlo(PolicySpec spec) {
        super(spec, PARAMS, -1);
    }

    static PriorityPolicy create(PolicySpec spec, PolicyContext ctx) {
        return new InvertedSlo(spec);
    }
}
