package io.servesim.policy.priority;

import io.servesim.cluster.PriorityPolicy;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;

/**
 * {@code inverted-slo {class_scores, default_score, age_weight}}: the negated {@link SloBased} score,
 * a pathological template (batch and young requests first).
 */
final class InvertedSlo extends ScoredPriority {
    private InvertedSlo(PolicySpec spec) {
        super(spec, "class_scores", SloBased.DEFAULT_CLASS_SCORES, false, -1);
    }

    static PriorityPolicy create(PolicySpec spec, PolicyContext ctx) {
        return new InvertedSlo(spec);
    }
}
