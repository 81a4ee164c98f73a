package io.servesim.policy.routing;

import io.servesim.cluster.ClusterView;
import io.servesim.cluster.RoutingPolicy;
import io.servesim.cluster.Signal;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.Set;

/**
 * {@code always-busiest}: the most loaded instance ({@link Load}; ties: lowest id), a pathological
 * template after BLIS's, to show what bad routing costs. No params.
 */
final class AlwaysBusiest implements RoutingPolicy {
    private AlwaysBusiest() {
    }

    static RoutingPolicy create(PolicySpec spec, PolicyContext ctx) {
        spec.requireOnly(Set.of());
        return new AlwaysBusiest();
    }

    @Override
    public int route(Request r, ClusterView v, long nowUs) {
        int best = 0;
        for (int i = 1; i < v.instances(); i++) {
            if (Load.of(v, i) > Load.of(v, best)) {
                best = i;
            }
        }
        return best;
    }

    @Override
    public Set<Signal> signalsRead() {
        return Load.SIGNALS;
    }
}
