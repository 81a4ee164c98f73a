package io.servesim.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigException;
import io.servesim.config.ConfigNode;
import io.servesim.config.Setting;
import io.servesim.policy.code.CodePolicies;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Binds {@code policies.<kind>} given either as a bare name ({@code scheduler: sjf}, the short form of
 * {@code {name: sjf}}) or as {@code {name: slo-based, params: {...}}}; the name is read through the kind's name
 * setting (one of the registry's), and the template's factory is run once so unknown or bad params fail at load time.
 * A code policy's relative {@code source} is resolved against the config's directory here
 * ({@link PolicyContext#baseDir}), so the bound spec holds it absolute.
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

    /**
     * Binds the policy written under {@code parent.<key>} (e.g. {@code policies.routing}, {@code autoscaling.policy}),
     * its {@code name} read through {@code name} (the default when absent); problems are recorded on {@code parent}
     * with their paths there.
     */
    public static <P> Bound<P> bind(ConfigNode parent, String key, Registry<P> registry, Setting<String> name,
                                    PolicyContext ctx) {
        String path = parent.pathOf(key);
        JsonNode v = parent.rawValue(key);
        PolicySpec fallback = PolicySpec.of(name.defaultValue(), path);
        ConfigNode n;
        if (v != null && v.isTextual()) {
            ObjectNode shortForm = JsonNodeFactory.instance.objectNode();
            shortForm.putObject(key).set(name.key(), v);
            n = parent.over(shortForm).child(key);
        } else if (v == null || v.isObject()) {
            n = parent.child(key);
            if (n.present() && !n.has(name.key())) {
                n.problem(n.pathOf(name.key()), "required; valid: " + String.join(", ", registry.names()));
                return new Bound<>(fallback, Optional.empty());
            }
        } else {
            parent.problem(path, "must be a policy name or {name, params}; valid names: "
                    + String.join(", ", registry.names()));
            return new Bound<>(fallback, Optional.empty());
        }
        Optional<String> chosen = n.valid(name);
        Map<String, Object> params = new LinkedHashMap<>();
        JsonNode p = n.rawValue("params");
        if (p != null && !p.isObject()) {
            n.problem(n.pathOf("params"), "must be a mapping");
        } else if (p != null) {
            p.fields().forEachRemaining(e -> params.put(e.getKey(), toJava(e.getValue())));
        }
        n.finish();
        if (chosen.isEmpty()) {
            return new Bound<>(fallback, Optional.empty());
        }
        PolicySpec spec = CodePolicies.withSourceResolved(new PolicySpec(chosen.get(), params, path), ctx.baseDir());
        try {
            return new Bound<>(spec, Optional.of(registry.create(spec, ctx)));
        } catch (ConfigException e) {
            parent.problems(e);
            return new Bound<>(spec, Optional.empty());
        }
    }

    private static Object toJava(JsonNode v) {
        if (v.isNumber()) {
            return v.asDouble();
        }
        if (v.isBoolean()) {
            return v.asBoolean();
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
