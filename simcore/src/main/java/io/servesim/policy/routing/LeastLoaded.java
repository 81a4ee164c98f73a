package io.servesim.policy.routing;

import io.servesim.cluster.ClusterView;
import io.servesim.cluster.RoutingPolicy;
import io.servesim.cluster.Signal;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.Set;

/**
 * {@code least-loaded}: fewest waiting + running requests ({@link Load}; ties: lower KV utilization,
 * lowest id), BLIS {@code sim/routing.go}. No params.
 */
final class LeastLoaded implements RoutingPolicy {
    private LeastLoaded() {
    }

    static RoutingPolicy create(PolicySpec spec, PolicyContext ctx) {
        spec.requireOnly(Set.of());
        return new LeastLoaded();
    }

    @Override
    public int route(Request r, ClusterView v, long nowUs) {
        return Load.leastLoaded(v);
    }

    @Override
    public Set<Signal> signalsRead() {
        return Load.LEAST_LOADED_SIGNALS;
    }
}
