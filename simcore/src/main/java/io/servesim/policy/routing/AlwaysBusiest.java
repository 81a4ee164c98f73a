package io.servesim.policy.routing;

import io.servesim.cluster.ClusterView;
import io.servesim.cluster.RoutingPolicy;
import io.servesim.cluster.Signal;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.Map;
import java.util.Set;

/**
 * {@code always-busiest}: the most loaded instance ({@link Load}; ties: lowest id), a pathological
 * template after BLIS's, to show what bad routing costs. No params. Its score is the load it
 * maximizes, so counterfactuals show the less loaded instances it passed over.
 */
final class AlwaysBusiest implements RoutingPolicy {
    private final double[] loads;
    private final Map<String, double[]> breakdown;

    private AlwaysBusiest(int instances) {
        loads = new double[instances];
        breakdown = Map.of("load", loads);
    }

    static RoutingPolicy create(PolicySpec spec, PolicyContext ctx) {
        return new AlwaysBusiest(ctx.instances());
    }

    @Override
    public int route(Request r, ClusterView v, long nowUs) {
        int best = 0;
        for (int i = 0; i < v.instances(); i++) {
            loads[i] = Load.of(v, i);
            if (loads[i] > loads[best]) {
                best = i;
            }
        }
        return best;
    }

    @Override
    public Set<Signal> signalsRead() {
        return Load.SIGNALS;
    }

    @Override
    public double[] lastScores() {
        return loads;
    }

    @Override
    public Map<String, double[]> lastBreakdown() {
        return breakdown;
    }
}
