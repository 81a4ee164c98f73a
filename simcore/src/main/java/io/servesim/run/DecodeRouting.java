package io.servesim.run;

import io.servesim.cluster.RoutingPolicy;
import io.servesim.cluster.Signal;
import io.servesim.config.ConfigNode;
import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import io.servesim.disagg.PdBinder;
import io.servesim.policy.PolicyBinder;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import io.servesim.policy.code.CodePolicies;
import io.servesim.policy.routing.Routers;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Binds {@code deployment.pd.decode_routing}, the decode pool's router under P/D: any routing policy of the registry
 * ({@link Routers}), written as {@code policies.routing} is (a name or {@code {name, params}}), that reads no prefix
 * cache. Decode routing is overlap-blind by design (as in the Dynamo mocker's disaggregated harness,
 * {@code lib/mocker/src/replay/offline/disagg.rs}, derives its decode router with overlap disabled and the decode
 * workers publish no KV events): the request's KV arrives from its prefill instance, so a decode instance's cached
 * prefixes save nothing. A policy whose built instance reads {@link Signal#PREFIX_CACHE} or
 * {@link Signal#CPU_PREFIX_CACHE} ({@link RoutingPolicy#signalsRead}: the policy is asked, never its name) is refused
 * at the key's path, listing the registry's routers that read none with their default params. Its name is declared
 * here ({@link #NAME}), beside the registry it names, which the {@code disagg} package does not see.
 */
final class DecodeRouting {
    /** The decode pool's router: least-loaded by default, by load and overlap-blind. */
    static final Setting<String> NAME = Setting.of("deployment.pd.decode_routing.name",
            ValueType.choice(List.copyOf(Routers.REGISTRY.names()), "routing policy"), "least-loaded",
            "The decode pool's router, written as policies.routing is (a name or {name, params}); one that reads no"
                    + " prefix cache. By load, overlap-blind, as the Dynamo mocker's disaggregated harness derives its"
                    + " decode router (lib/mocker/src/replay/offline/disagg.rs).")
            .flag("--pd-decode-routing");
    private static final Set<Signal> PREFIX_SIGNALS = Set.of(Signal.PREFIX_CACHE, Signal.CPU_PREFIX_CACHE);

    private DecodeRouting() {
    }

    /** The decode router's spec from {@code pd} (the {@code deployment.pd} node); problems are recorded there. */
    static PolicySpec bind(ConfigNode pd, PolicyContext ctx) {
        String key = PdBinder.DECODE_ROUTING_KEY;
        PolicyBinder.Bound<RoutingPolicy> bound = PolicyBinder.bind(pd, key, Routers.REGISTRY, NAME, ctx);
        bound.policy().ifPresent(p -> {
            List<String> read = prefixSignals(p);
            if (!read.isEmpty()) {
                pd.problem(pd.pathOf(key), bound.spec().name() + " reads the instances' prefix caches ("
                        + String.join(", ", read) + "), but the decode pool is routed overlap-blind (a request's KV"
                        + " arrives from its prefill instance); valid here: " + String.join(", ", blind(ctx))
                        + ", or a router whose params read no prefix cache");
            }
        });
        return bound.spec();
    }

    /** The prefix signals {@code p} reads, by config name. */
    private static List<String> prefixSignals(RoutingPolicy p) {
        List<String> read = new ArrayList<>();
        for (Signal s : Signal.values()) {
            if (PREFIX_SIGNALS.contains(s) && p.signalsRead().contains(s)) {
                read.add(s.configName());
            }
        }
        return read;
    }

    /**
     * The registry's templates that read no prefix cache with their default params, in registry order (a code policy
     * has no default: it reads what its source calls).
     */
    private static List<String> blind(PolicyContext ctx) {
        List<String> names = new ArrayList<>();
        for (String name : Routers.REGISTRY.names()) {
            if (!name.equals(CodePolicies.NAME) && prefixSignals(Routers.REGISTRY.create(PolicySpec.of(name, PdBinder.DECODE_ROUTING_KEY), ctx)).isEmpty()) {
                names.add(name);
            }
        }
        return names;
    }
}
