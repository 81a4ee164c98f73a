package io.servesim.policy;

import java.util.List;
import java.util.Set;

/**
 * A capability a policy declares when some of its parameters are maps keyed by the workload's
 * tenants or SLO classes ({@code tenant-quota}'s {@code tenant_limits}, {@code slo-based}'s
 * {@code class_scores}, ...). The run config loader checks every key names a tenant or class the
 * workload has: a misspelt one would otherwise match no request and the policy would silently
 * treat everyone alike.
 */
public interface NamesWorkloadKeys {
    /** The keyed parameters given in the policy's params (defaults are not the user's to check). */
    List<KeyedParam> keyedParams();

    /**
     * One map-valued parameter and the keys it was given.
     *
     * @param param    parameter name, under {@code <policy path>.params}
     * @param byTenant true when the keys are tenants, false when they are SLO classes
     * @param keys     the keys given
     */
    record KeyedParam(String param, boolean byTenant, Set<String> keys) {
        public KeyedParam {
            keys = Set.copyOf(keys);
        }
    }
}
