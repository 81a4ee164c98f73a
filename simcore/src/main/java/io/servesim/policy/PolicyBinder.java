package io.servesim.policy;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigException;
import io.servesim.config.ConfigNode;
import io.servesim.policy.code.CodePolicies;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Binds {@code policies.<kind>} given either as a bare name ({@code scheduler: sjf}) or as
 * {@code {name: slo-based, params: {...}}}; the name must be registered, and the template's
 * factory is run once so unknown or bad params fail at load time. A code policy's relative {@code source} is
 * resolved against the config's directory here ({@link PolicyContext#baseDir}), so the bound spec holds it absolute.
 */
public final class PolicyBinder {
    /**
     * A bound policy.
     *
     * @param spec   what the config says (the default's name when it says nothing)
     * @param policy the policy built from it once, so its declared capabilities can be asked; empty when
     *               the spec has problems (recorded on the config node)
     * @param <P>    the policy interface
     */
    public record Bound<P>(PolicySpec spec, Optional<P> policy) {
    }

    private PolicyBinder() {
    }

    /** Binds {@code policies.<registry's kind>}, {@code dflt} when absent; problems are recorded on {@code policies}. */
    public static <P> Bound<P> bind(ConfigNode policies, Registry<P> registry, String dflt, PolicyContext ctx) {
        return bind(policies, registry.kind(), registry, dflt, ctx);
    }

    /**
     * Binds the policy written under {@code parent.<key>} (e.g. {@code autoscaling.policy}), {@code dflt} when
     * absent; problems are recorded on {@code parent} with their paths there.
     */
    public static <P> Bound<P> bind(ConfigNode policies, String kind, Registry<P> registry, String dflt, PolicyContext ctx) {
        String path = policies.pathOf(kind);
        JsonNode v = policies.rawValue(kind);
        PolicySpec spec;
        if (v == null) {
            spec = PolicySpec.of(dflt, path);
        } else if (v.isTextual()) {
            spec = PolicySpec.of(v.asText(), path);
        } else if (v.isObject()) {
            ConfigNode n = policies.child(kind);
            String name = n.stringValue("name", null);
            if (name == null) {
                n.problem(n.pathOf("name"), "required; valid: " + String.join(", ", registry.names()));
                return new Bound<>(PolicySpec.of(dflt, path), Optional.empty());
            }
            Map<String, Object> params = new LinkedHashMap<>();
            JsonNode p = n.rawValue("params");
            if (p != null && !p.isObject()) {
                n.problem(n.pathOf("params"), "must be a mapping");
            } else if (p != null) {
                p.fields().forEachRemaining(e -> params.put(e.getKey(), toJava(e.getValue())));
            }
            n.finish();
            spec = CodePolicies.withSourceResolved(new PolicySpec(name, params, path), ctx.baseDir());
        } else {
            policies.problem(path, "must be a policy name or {name, params}; valid names: "
                    + String.join(", ", registry.names()));
            return new Bound<>(PolicySpec.of(dflt, path), Optional.empty());
        }
        try {
            return new Bound<>(spec, Optional.of(registry.create(spec, ctx)));
        } catch (ConfigException e) {
            e.problems().forEach(pr -> policies.problem(pr.path(), pr.message()));
            return new Bound<>(spec, Optional.empty());
        }
    }

    private static Object toJava(JsonNode v) {
        if (v.isNumber()) {
            return v.asDouble();
        }
        if (v.isObject()) {
            Map<String, Object> m = new LinkedHashMap<>();
            v.fields().forEachRemaining(e -> m.put(e.getKey(), toJava(e.getValue())));
            return m;
        }
        if (v.isArray()) {
            List<Object> l = new ArrayList<>();
            v.forEach(e -> l.add(toJava(e)));
            return l;
        }
        return v.asText();
    }
}
