package io.servesim.policy.routing;

import io.servesim.cluster.ClusterView;
import io.servesim.cluster.RoutingPolicy;
import io.servesim.cluster.Signal;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.Set;

/**
 * {@code kv-router {overlap_weight}}: NVIDIA Dynamo's KV-aware router cost
 * {@code overlap_weight x (prompt blocks to prefill) + potential active blocks} (its
 * {@code DefaultWorkerSelector} logit at temperature 0), lowest cost wins; default weight 1.
 * Active blocks are the router's own bookkeeping of what it dispatched (Dynamo
 * {@code docs/design_docs/router_design.md}: incremented when a request is added, decremented
 * when it completes), here the prompt blocks of the instance's in-flight requests, queued ones
 * included, plus the new request's; Dynamo also adds blocks as tokens stream, which this omits.
 * Counting only the KV blocks an engine has allocated would hide its wait queue and pile
 * requests onto the instance holding a popular prefix once its cache is full.
 */
final class KvRouter implements RoutingPolicy {
    private final double overlapWeight;

    private KvRouter(double overlapWeight) {
        this.overlapWeight = overlapWeight;
    }

    static RoutingPolicy create(PolicySpec spec, PolicyContext ctx) {
        spec.requireOnly(Set.of("overlap_weight"));
        return new KvRouter(spec.nonNegative("overlap_weight", 1));
    }

    @Override
    public int route(Request r, ClusterView v, long nowUs) {
        int[] overlap = v.prefixOverlapBlocks(r);
        int promptBlocks = (r.inputTokens() + v.blockSizeTokens() - 1) / v.blockSizeTokens();
        int best = 0;
        double bestCost = Double.MAX_VALUE;
        for (int i = 0; i < v.instances(); i++) {
            double cost = overlapWeight * (promptBlocks - overlap[i]) + v.inFlightPromptBlocks(i) + promptBlocks;
            if (cost < bestCost) {
                bestCost = cost;
                best = i;
            }
        }
        return best;
    }

    /** The prefix index only: active blocks are the router's own bookkeeping, no signal. */
    @Override
    public Set<Signal> signalsRead() {
        return Set.of(Signal.PREFIX_CACHE);
    }
}
