package io.servesim.policy;

import io.servesim.config.ConfigException;
import io.servesim.config.Setting;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * An explicit name -> factory registry for one kind of policy (Caffeine simulator's
 * {@code policy/Registry.java}): no classpath scanning; an unknown name fails at load time with
 * the list of valid names, in registration order (the order help and error messages list them). Each entry carries
 * its policy's parameters, declared as {@link Setting}s at {@code policies.<kind>[<name>].params.<key>}: params not
 * declared, and every value its setting refuses, are refused together before the factory runs, and the settings
 * catalog lists every policy's parameters.
 *
 * <p>To add a policy of an existing kind:
 * <ol>
 *   <li>write one class in the kind's package ({@code policy.routing}, {@code policy.admission},
 *       {@code policy.priority}, {@code policy.scheduling}) implementing the kind's interface, with
 *       Javadoc saying what it models and its source; declare each parameter as a {@link Setting} there (type, unit,
 *       range and why, default) and a static factory {@code create(PolicySpec, PolicyContext)} that reads them
 *       ({@link PolicySpec#get});</li>
 *   <li>declare its capabilities through the interface (e.g. {@code RoutingPolicy.signalsRead},
 *       from which the prefix indexes kept and the on-demand pull latency follow) or implementing {@link NamesWorkloadKeys} when a
 *       param is keyed by tenants or SLO classes; nothing elsewhere switches on its name;</li>
 *   <li>add one line to the kind's registry: {@code .register("kv-router", KvRouter::create, KvRouter.PARAMS)}.</li>
 * </ol>
 * The config loader, the CLI's flags and help, error messages, the settings catalog and the contract tests
 * ({@code PolicyContractTest}) all read the registry, so nothing else changes. A new kind of policy
 * is added as {@code io.servesim.run.PolicyKind} describes.
 *
 * @param <P> the policy interface
 */
public final class Registry<P> {
    private final String kind;
    private final Map<String, BiFunction<PolicySpec, PolicyContext, P>> factories = new LinkedHashMap<>();
    private final Map<String, List<Setting<?>>> params = new LinkedHashMap<>();

    /** An empty registry of the policies of {@code kind} (e.g. {@code routing}, as in errors). */
    public Registry(String kind) {
        this.kind = kind;
    }

    /** The kind's name, as in {@code unknown routing policy}. */
    public String kind() {
        return kind;
    }

    /** Adds policy {@code name}, which takes no params; a name registers once. */
    public Registry<P> register(String name, BiFunction<PolicySpec, PolicyContext, P> factory) {
        return register(name, factory, List.of());
    }

    /**
     * Adds policy {@code name} with its parameters, each declared at {@code policies.<kind>[<name>].params.<key>};
     * a name registers once.
     */
    public Registry<P> register(String name, BiFunction<PolicySpec, PolicyContext, P> factory, List<Setting<?>> settings) {
        String at = "policies." + kind + "[" + name + "].params.";
        for (Setting<?> s : settings) {
            if (!s.path().equals(at + s.key())) {
                throw new IllegalArgumentException(s.path() + " is not a parameter of " + kind + " policy " + name
                        + " (" + at + s.key() + ")");
            }
        }
        if (factories.putIfAbsent(name, factory) != null) {
            throw new IllegalArgumentException("duplicate " + kind + " policy " + name);
        }
        params.put(name, List.copyOf(settings));
        return this;
    }

    /** The registered names, in registration order. */
    public Set<String> names() {
        return Collections.unmodifiableSet(factories.keySet());
    }

    /** The parameters of every policy, in registration order (the settings catalog's section for the kind). */
    public List<Setting<?>> settings() {
        List<Setting<?>> all = new ArrayList<>();
        params.values().forEach(all::addAll);
        return Collections.unmodifiableList(all);
    }

    /** Checks the name exists without building the policy. */
    public void requireKnown(PolicySpec spec) {
        if (!factories.containsKey(spec.name())) {
            throw new ConfigException(spec.path() + ".name", "unknown " + kind + " policy '" + spec.name()
                    + "'; valid: " + String.join(", ", factories.keySet()));
        }
    }

    /**
     * Builds a fresh policy instance (policies may keep per-run state); params it does not declare and values its
     * settings refuse are refused all at once, before its factory runs ({@link PolicySpec#requireValid}).
     */
    public P create(PolicySpec spec, PolicyContext context) {
        requireKnown(spec);
        spec.requireValid(params.get(spec.name()));
        return factories.get(spec.name()).apply(spec, context);
    }

    /** Builds with the default context (validation, single-instance tests). */
    public P create(PolicySpec spec) {
        return create(spec, PolicyContext.DEFAULT);
    }
}
