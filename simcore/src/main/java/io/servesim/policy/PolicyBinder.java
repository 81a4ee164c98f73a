package io.servesim.policy;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigException;
import io.servesim.config.ConfigNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Binds {@code policies.<kind>} given either as a bare name ({@code scheduler: sjf}) or as
 * {@code {name: slo-based, params: {...}}}; the name must be registered, and the template's
 * factory is run once so unknown or bad params fail at load time.
 */
public final class PolicyBinder {
    private PolicyBinder() {
    }

    public static PolicySpec bind(ConfigNode policies, String kind, String dflt, Registry<?> registry,
                           io.servesim.policy.PolicyContext ctx) {
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
                return PolicySpec.of(dflt, path);
            }
            Map<String, Object> params = new LinkedHashMap<>();
            JsonNode p = n.rawValue("params");
            if (p != null && !p.isObject()) {
                n.problem(n.pathOf("params"), "must be a mapping");
            } else if (p != null) {
                p.fields().forEachRemaining(e -> params.put(e.getKey(), toJava(e.getValue())));
            }
            n.finish();
            spec = new PolicySpec(name, params, path);
        } else {
            policies.problem(path, "must be a policy name or {name, params}; valid names: "
                    + String.join(", ", registry.names()));
            return PolicySpec.of(dflt, path);
        }
        try {
            registry.create(spec, ctx);
        } catch (ConfigException e) {
            e.problems().forEach(pr -> policies.problem(pr.path(), pr.message()));
        }
        return spec;
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
