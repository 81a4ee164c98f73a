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
 * {@code least-loaded}: fewest waiting + running requests ({@link Load}; ties: lower KV utilization,
 * lowest id), BLIS {@code sim/routing.go}. No params. Its score is minus the load it minimizes
 * (components {@code load} and the tie-breaking {@code kv_utilization}).
 */
final class LeastLoaded implements RoutingPolicy {
    private final double[] loads;
    private final double[] kvs;
    private final ScoreSheet sheet;
    private final double[] scores;

    private LeastLoaded(int instances) {
        sheet = new ScoreSheet(instances);
        scores = sheet.scores;
        loads = sheet.component("load");
        kvs = sheet.component("kv_utilization");
    }

    static RoutingPolicy create(PolicySpec spec, PolicyContext ctx) {
        return new LeastLoaded(ctx.instances());
    }

    @Override
    public int route(Request r, ClusterView v, long nowUs) {
        int best = Load.leastLoaded(v, loads, kvs);
        for (int i = 0; i < v.instances(); i++) {
            scores[i] = -loads[i];
        }
        return best;
    }

    @Override
    public double[] lastScores() {
        return scores;
    }

    @Override
    public Map<String, double[]> lastBreakdown() {
        return sheet.components();
    }

    @Override
    public Set<Signal> signalsRead() {
        return Load.LEAST_LOADED_SIGNALS;
    }
}
