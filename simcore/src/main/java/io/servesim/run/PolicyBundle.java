package io.servesim.run;

import io.servesim.policy.PolicySpec;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The control policies of a run, as one unit ({@code policies:} in a run config, or a
 * {@code --policy-config} file): one {@link PolicySpec} per {@link PolicyKind}, in {@link PolicyKind#ALL}'s order.
 *
 * @param specs the spec of every kind
 */
public record PolicyBundle(Map<PolicyKind<?>, PolicySpec> specs) {
    /** Every kind's default policy. */
    public static final PolicyBundle DEFAULT = defaults();

    public PolicyBundle {
        Map<PolicyKind<?>, PolicySpec> ordered = new LinkedHashMap<>();
        for (PolicyKind<?> kind : PolicyKind.ALL) {
            PolicySpec spec = specs.get(kind);
            if (spec == null) {
                throw new IllegalArgumentException("no " + kind.name() + " policy");
            }
            ordered.put(kind, spec);
        }
        specs = Collections.unmodifiableMap(ordered);
    }

    private static PolicyBundle defaults() {
        Map<PolicyKind<?>, PolicySpec> specs = new LinkedHashMap<>();
        PolicyKind.ALL.forEach(kind -> specs.put(kind, kind.defaultSpec()));
        return new PolicyBundle(specs);
    }

    /** The spec of {@code kind}. */
    public PolicySpec spec(PolicyKind<?> kind) {
        return specs.get(kind);
    }

    /** This bundle with {@code kind}'s policy replaced by {@code spec}. */
    public PolicyBundle with(PolicyKind<?> kind, PolicySpec spec) {
        Map<PolicyKind<?>, PolicySpec> copy = new LinkedHashMap<>(specs);
        copy.put(kind, spec);
        return new PolicyBundle(copy);
    }

    /** This bundle with {@code kind}'s policy replaced by template {@code name} without params. */
    public PolicyBundle with(PolicyKind<?> kind, String name) {
        return with(kind, PolicySpec.of(name, kind.configPath()));
    }
}
