package io.servesim.policy;

import io.servesim.config.ConfigException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * An explicit name -> factory registry for one kind of policy (Caffeine simulator's
 * {@code policy/Registry.java}): no classpath scanning; an unknown name fails at load time with
 * the list of valid names, in registration order (the order help and error messages list them).
 *
 * <p>To add a policy of an existing kind:
 * <ol>
 *   <li>write one class in the kind's package ({@code policy.routing}, {@code policy.admission},
 *       {@code policy.priority}, {@code policy.scheduling}) implementing the kind's interface, with
 *       Javadoc saying what it models and its source, and a static factory
 *       {@code create(PolicySpec, PolicyContext)} that reads and checks its params
 *       ({@link PolicySpec#requireOnly} first, so unknown params fail at load time);</li>
 *   <li>declare its capabilities through the interface (e.g. {@code RoutingPolicy.signalsRead},
 *       from which the prefix indexes kept and the on-demand pull latency follow) or implementing {@link NamesWorkloadKeys} when a
 *       param is keyed by tenants or SLO classes; nothing elsewhere switches on its name;</li>
 *   <li>add one line to the kind's registry: {@code .register("kv-router", KvRouter::create)}.</li>
 * </ol>
 * The config loader, the CLI's flags and help, error messages and the contract tests
 * ({@code PolicyContractTest}) all read the registry, so nothing else changes. A new kind of policy
 * is added as {@code io.servesim.run.PolicyKind} describes.
 *
 * @param <P> the policy interface
 */
public final class Registry<P> {
    private final String kind;
    private final Map<String, BiFunction<PolicySpec, PolicyContext, P>> factories = new LinkedHashMap<>();

    /** An empty registry of the policies of {@code kind} (e.g. {@code routing}, as in errors). */
    public Registry(String kind) {
        this.kind = kind;
    }

    /** The kind's name, as in {@code unknown routing policy}. */
    public String kind() {
        return kind;
    }

    /** Adds policy {@code name}; a name registers once. */
    public Registry<P> register(String name, BiFunction<PolicySpec, PolicyContext, P> factory) {
        if (factories.putIfAbsent(name, factory) != null) {
            throw new IllegalArgumentException("duplicate " + kind + " policy " + name);
        }
        return this;
    }

    /** The registered names, in registration order. */
    public Set<String> names() {
        return Collections.unmodifiableSet(factories.keySet());
    }

    /** Checks the name exists without building the policy. */
    public void requireKnown(PolicySpec spec) {
        if (!factories.containsKey(spec.name())) {
            throw new ConfigException(spec.path() + ".name", "unknown " + kind + " policy '" + spec.name()
                    + "'; valid: " + String.join(", ", factories.keySet()));
        }
    }

    /** Builds a fresh policy instance (policies may keep per-run state). */
    public P create(PolicySpec spec, PolicyContext context) {
        requireKnown(spec);
        return factories.get(spec.name()).apply(spec, context);
    }

    /** Builds with the default context (validation, single-instance tests). */
    public P create(PolicySpec spec) {
        return create(spec, PolicyContext.DEFAULT);
    }
}
