package io.servesim.policy.routing;

import io.servesim.cluster.RoutingPolicy;
import io.servesim.config.ConfigException;
import io.servesim.policy.PolicySpec;
import io.servesim.policy.Registry;
import java.util.Set;

/**
 * Routing templates:
 * <ul>
 *   <li>{@code round-robin}: instances in turn.</li>
 *   <li>{@code least-loaded}: fewest waiting + running requests (ties: lower KV utilization, lowest id).</li>
 *   <li>{@code weighted-scoring {cache_affinity, load, queue_depth, kv_utilization}}: see {@link WeightedScoring}
 *       (default weights 1, 1, 0, 0.5).</li>
 *   <li>{@code prefix-affinity}: the instance caching the longest prefix of the prompt; on a miss
 *       (no instance caches its first block) least-loaded; ties by load then id.</li>
 *   <li>{@code kv-router {overlap_weight}}: NVIDIA Dynamo's KV-aware router cost
 *       {@code overlap_weight x (prompt blocks to prefill) + potential active blocks} (its
 *       {@code DefaultWorkerSelector} logit at temperature 0), lowest cost wins; default weight 1.
 *       Active blocks are the router's own bookkeeping of what it dispatched (Dynamo
 *       {@code docs/design_docs/router_design.md}: incremented when a request is added, decremented
 *       when it completes), here the prompt blocks of the instance's in-flight requests, queued ones
 *       included, plus the new request's; Dynamo also adds blocks as tokens stream, which this omits.
 *       Counting only the KV blocks an engine has allocated would hide its wait queue and pile
 *       requests onto the instance holding a popular prefix once its cache is full.</li>
 *   <li>{@code always-busiest}: the most loaded instance (pathological).</li>
 * </ul>
 */
public final class Routers {
    public static final Registry<RoutingPolicy> REGISTRY = new Registry<RoutingPolicy>("routing")
            .register("round-robin", (spec, ctx) -> {
                spec.requireOnly(Set.of());
                return new RoutingPolicy() {
                    private int next;

                    @Override
                    public int route(io.servesim.engine.Request r, io.servesim.cluster.ClusterView v, long nowUs) {
                        int i = next;
                        next = (next + 1) % v.instances();
                        return i;
                    }
                };
            })
            .register("least-loaded", (spec, ctx) -> {
                spec.requireOnly(Set.of());
                return (r, v, now) -> Load.leastLoaded(v);
            })
            .register("weighted-scoring", (spec, ctx) -> {
                spec.requireOnly(Set.of("cache_affinity", "load", "queue_depth", "kv_utilization"));
                return new WeightedScoring(weight(spec, "cache_affinity", 1), weight(spec, "load", 1),
                        weight(spec, "queue_depth", 0), weight(spec, "kv_utilization", 0.5), ctx.instances());
            })
            .register("prefix-affinity", (spec, ctx) -> {
                spec.requireOnly(Set.of());
                return (r, v, now) -> {
                    int[] overlap = v.prefixOverlapBlocks(r);
                    int best = -1;
                    for (int i = 0; i < v.instances(); i++) {
                        if (overlap[i] > 0 && (best < 0 || overlap[i] > overlap[best]
                                || (overlap[i] == overlap[best] && Load.of(v, i) < Load.of(v, best)))) {
                            best = i;
                        }
                    }
                    return best >= 0 ? best : Load.leastLoaded(v);
                };
            })
            .register("kv-router", (spec, ctx) -> {
                spec.requireOnly(Set.of("overlap_weight"));
                double w = weight(spec, "overlap_weight", 1);
                return (r, v, now) -> {
                    int[] overlap = v.prefixOverlapBlocks(r);
                    int promptBlocks = (r.inputTokens() + v.blockSizeTokens() - 1) / v.blockSizeTokens();
                    int best = 0;
                    double bestCost = Double.MAX_VALUE;
                    for (int i = 0; i < v.instances(); i++) {
                        double cost = w * (promptBlocks - overlap[i]) + v.inFlightPromptBlocks(i) + promptBlocks;
                        if (cost < bestCost) {
                            bestCost = cost;
                            best = i;
                        }
                    }
                    return best;
                };
            })
            .register("always-busiest", (spec, ctx) -> {
                spec.requireOnly(Set.of());
                return (r, v, now) -> {
                    int best = 0;
                    for (int i = 1; i < v.instances(); i++) {
                        if (Load.of(v, i) > Load.of(v, best)) {
                            best = i;
                        }
                    }
                    return best;
                };
            });

    private Routers() {
    }

    /** True when the template reads the prefix-cache index (so the cluster maintains one). */
    public static boolean usesPrefixCache(PolicySpec spec) {
        return switch (spec.name()) {
            case "prefix-affinity", "kv-router" -> true;
            case "weighted-scoring" -> spec.number("cache_affinity", 1) > 0;
            default -> false;
        };
    }

    private static double weight(PolicySpec spec, String key, double dflt) {
        double w = spec.number(key, dflt);
        if (!(w >= 0)) {
            throw new ConfigException(spec.path() + ".params." + key, "must be >= 0");
        }
        return w;
    }
}
