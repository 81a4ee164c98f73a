package io.servesim.policy.routing;

import io.servesim.cluster.ClusterView;
import io.servesim.cluster.RoutingPolicy;
import io.servesim.cluster.Signal;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.Set;

/**
 * {@code round-robin}: instances in turn (BLIS {@code sim/routing.go}). No params. It scores
 * nothing, and decision traces say so ({@link #unscoredBecause()}) rather than show scores.
 */
final class RoundRobin implements RoutingPolicy {
    private int next;

    private RoundRobin() {
    }

    static RoutingPolicy create(PolicySpec spec, PolicyContext ctx) {
        return new RoundRobin();
    }

    @Override
    public int route(Request r, ClusterView v, long nowUs) {
        int i = next % v.instances(); // the ready set may have shrunk since the last decision
        next = (i + 1) % v.instances();
        return i;
    }

    @Override
    public String unscoredBecause() {
        return "takes the instances in turn, reading no instance state";
    }

    /** None: the rotation needs no instance state. */
    @Override
    public Set<Signal> signalsRead() {
        return Set.of();
    }
}
