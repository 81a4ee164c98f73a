package io.servesim.policy.priority;

import io.servesim.cluster.PriorityPolicy;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.Map;

/**
 * {@code tenant-priority {tenant_scores, default_score, age_weight}}: {@link SloBased}'s score with
 * per-tenant scores instead of per-class ones (no default scores: every tenant gets
 * {@code default_score} unless named).
 */
final class TenantPriority extends ScoredPriority {
    static final Params PARAMS = params("tenant-priority", "tenant_scores", Map.of(), true);

    private TenantPriority(PolicySpec spec) {
        super(spec, PARAMS, 1);
    }

    static PriorityPolicy create(PolicySpec spec, PolicyContext ctx) {
        return new TenantPriority(spec);
    }
}
