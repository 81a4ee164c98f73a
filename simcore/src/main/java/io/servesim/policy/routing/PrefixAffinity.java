package io.servesim.policy.routing;

import io.servesim.cluster.ClusterView;
import io.servesim.cluster.RoutingPolicy;
import io.servesim.cluster.Signal;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.Set;

/**
 * {@code prefix-affinity}: the instance caching the longest prefix of the prompt; on a miss (no
 * instance caches its first block) least-loaded; ties by load then id. No params.
 */
final class PrefixAffinity implements RoutingPolicy {
    private static final Set<Signal> SIGNALS =
            Set.of(Signal.PREFIX_CACHE, Signal.QUEUE_DEPTH, Signal.RUNNING, Signal.KV_UTILIZATION);

    private PrefixAffinity() {
    }

    static RoutingPolicy create(PolicySpec spec, PolicyContext ctx) {
        spec.requireOnly(Set.of());
        return new PrefixAffinity();
    }

    @Override
    public int route(Request r, ClusterView v, long nowUs) {
        int[] overlap = v.prefixOverlapBlocks(r);
        int best = -1;
        for (int i = 0; i < v.instances(); i++) {
            if (overlap[i] > 0 && (best < 0 || overlap[i] > overlap[best]
                    || (overlap[i] == overlap[best] && Load.of(v, i) < Load.of(v, best)))) {
                best = i;
            }
        }
        return best >= 0 ? best : Load.leastLoaded(v);
    }

    /** The prefix index, and the signals of the least-loaded fallback ({@link Load#LEAST_LOADED_SIGNALS}). */
    @Override
    public Set<Signal> signalsRead() {
        return SIGNALS;
    }
}
