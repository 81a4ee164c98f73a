package io.servesim.run;

import io.servesim.cluster.ClusterView;
import io.servesim.cluster.RoutingPolicy;
import io.servesim.cluster.Signal;
import io.servesim.engine.Request;
import java.util.Map;
import java.util.Set;

/**
 * A routing policy with one decision changed: request {@code requestId} goes to instance id {@code instance},
 * every other request where the wrapped policy sends it. The wrapped policy still decides the forced
 * request too, so its internal state (e.g. a round-robin counter) evolves exactly as in the
 * original run; with the deterministic kernel the replay is the original run up to that decision.
 * Under P/D both pools' routers are wrapped and each routes the request once: only the one whose pool
 * holds {@code instance} ({@link ClusterView#covers}) changes its decision.
 */
final class ForcedRoute implements RoutingPolicy {
    private final RoutingPolicy policy;
    private final long requestId;
    private final int instance;

    ForcedRoute(RoutingPolicy policy, long requestId, int instance) {
        this.policy = policy;
        this.requestId = requestId;
        this.instance = instance;
    }

    @Override
    public int route(Request r, ClusterView view, long nowUs) {
        int chosen = policy.route(r, view, nowUs);
        if (r.id() != requestId || !view.covers(instance)) {
            return chosen; // another request, or (P/D) the other pool's decision for this one
        }
        for (int k = 0; k < view.instances(); k++) {
            if (view.id(k) == instance) {
                return k;
            }
        }
        throw new IllegalStateException("instance " + instance + " is not routable at request " + requestId
                + "'s decision in the replay");
    }

    @Override
    public Set<Signal> signalsRead() {
        return policy.signalsRead();
    }

    @Override
    public Map<String, double[]> lastBreakdown() {
        return policy.lastBreakdown();
    }

    @Override
    public double[] lastScores() {
        return policy.lastScores();
    }

    @Override
    public String unscoredBecause() {
        return policy.unscoredBecause();
    }
}
