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
 * the list of valid names.
 *
 * @param <P> the policy interface
 */
public final class Registry<P> {
    private final String kind;
    private final Map<String, BiFunction<PolicySpec, PolicyContext, P>> factories = new LinkedHashMap<>();

    public Registry(String kind) {
        this.kind = kind;
    }

    public Registry<P> register(String name, BiFunction<PolicySpec, PolicyContext, P> factory) {
        if (factories.putIfAbsent(name, factory) != null) {
            throw new IllegalArgumentException("duplicate " + kind + " policy " + name);
        }
        return this;
    }

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
