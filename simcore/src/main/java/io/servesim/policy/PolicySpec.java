package io.servesim.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigException;
import io.servesim.config.Setting;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A policy template name plus its parameters, as bound from config
 * ({@code policies.priority: {name: slo-based, params: {age_weight: 0.5}}}); the template reads each parameter through
 * its declared {@link Setting} ({@link #get}), which parses and range-checks it.
 *
 * @param name   template name, looked up in a registry
 * @param params parameters (values are Double, Boolean, String, List or Map), read by the template's factory
 * @param path   config path of this policy, for error messages
 */
public record PolicySpec(String name, Map<String, Object> params, String path) {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    public PolicySpec {
        params = Map.copyOf(params);
    }

    public static PolicySpec of(String name, String path) {
        return new PolicySpec(name, Map.of(), path);
    }

    /**
     * Fails unless every parameter is one of {@code declared} and its value parses and is in range, naming every
     * problem at once (each bad value at {@code <path>.params.<key>}, then each unknown key), as a config node collects
     * a document's: a template's factory then reads values that parse, and its checks across params (which stop at
     * the first) judge only those.
     */
    public void requireValid(List<Setting<?>> declared) {
        List<ConfigException.Problem> problems = new ArrayList<>();
        for (Setting<?> s : declared) {
            problems.addAll(refused(s));
            if (s.required() && params.get(s.key()) == null) {
                problems.add(missing(s));
            }
        }
        problems.addAll(unknown(declared));
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }

    /** The problems of the value given for {@code setting}: none when it is absent or valid. */
    private List<ConfigException.Problem> refused(Setting<?> setting) {
        try {
            get(setting);
            return List.of();
        } catch (ConfigException e) {
            return e.problems();
        }
    }

    /** A problem for every parameter key that none of {@code declared} reads, in key order, listing the valid keys. */
    private List<ConfigException.Problem> unknown(List<Setting<?>> declared) {
        Set<String> allowed = new TreeSet<>();
        declared.forEach(s -> allowed.add(s.key()));
        // none of the params is this policy's: most likely another policy's, its name changed by a flag or an override
        boolean foreign = params.size() > 1 && params.keySet().stream().noneMatch(allowed::contains);
        String hint = foreign ? " (none of the params given is one of '" + name + "''s: if they were written for another"
                + " policy, --set " + path + ".params=null drops them)" : "";
        List<ConfigException.Problem> unknown = new ArrayList<>();
        for (String k : new TreeSet<>(params.keySet())) {
            if (!allowed.contains(k)) {
                unknown.add(new ConfigException.Problem(path + ".params." + k, "unknown parameter for '" + name
                        + "'; valid: " + (allowed.isEmpty() ? "(none)" : String.join(", ", allowed)) + hint));
            }
        }
        return unknown;
    }

    /**
     * The parameter {@code setting} declares (its key), parsed and range-checked by the setting's type as
     * {@code ConfigNode.get} does (a problem at {@code <path>.params.<key>} names the range and why), or the setting's
     * default when absent (null for a required or derived one).
     */
    public <T> T get(Setting<T> setting) {
        Object v = params.get(setting.key());
        return v == null ? setting.defaultValue() : setting.parse(json(v), path + ".params." + setting.key());
    }

    /** {@link #get} of a parameter without a default, refused when absent. */
    public <T> T require(Setting<T> setting) {
        T v = get(setting);
        if (v == null) {
            throw new ConfigException(List.of(missing(setting)));
        }
        return v;
    }

    private ConfigException.Problem missing(Setting<?> setting) {
        return new ConfigException.Problem(path + ".params." + setting.key(), "required: " + setting.type().describe());
    }

    /** Whether the config gives parameter {@code setting} (rather than leave it to its default). */
    public boolean has(Setting<?> setting) {
        return params.containsKey(setting.key());
    }

    /** A bound param as the config node it was (a whole number as an integer, so {@code 60} reads back as 60). */
    private static JsonNode json(Object v) {
        if (v instanceof Double d) {
            return d == Math.rint(d) && Math.abs(d) < 0x1p53 ? JSON.numberNode(d.longValue()) : JSON.numberNode(d);
        }
        if (v instanceof Boolean b) {
            return JSON.booleanNode(b);
        }
        if (v instanceof Map<?, ?> m) {
            ObjectNode o = JSON.objectNode();
            m.forEach((k, x) -> o.set(String.valueOf(k), json(x)));
            return o;
        }
        if (v instanceof List<?> l) {
            ArrayNode a = JSON.arrayNode();
            l.forEach(x -> a.add(json(x)));
            return a;
        }
        if (v instanceof Number n) {
            return json(n.doubleValue());
        }
        return JSON.textNode(String.valueOf(v));
    }
}
