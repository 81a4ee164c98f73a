package io.servesim.policy.routing;

import io.servesim.cluster.RoutingPolicy;
import io.servesim.policy.Registry;
import io.servesim.policy.code.CodePolicies;

/**
 * The routing templates, one class each, in the order help and error messages list them
 * ({@link Registry} says how to add one).
 */
public final class Routers {
    public static final Registry<RoutingPolicy> REGISTRY = new Registry<RoutingPolicy>("routing")
            .register("round-robin", RoundRobin::create)
            .register("least-loaded", LeastLoaded::create)
            .register("weighted-scoring", WeightedScoring::create, WeightedScoring.PARAMS)
            .register("prefix-affinity", PrefixAffinity::create)
            .register("kv-router", KvRouter::create, KvRouter.PARAMS)
            .register("always-busiest", AlwaysBusiest::create)
            .register(CodePolicies.NAME, CodePolicies::routing, CodePolicies.ROUTING.all());

    private Routers() {
    }
}
