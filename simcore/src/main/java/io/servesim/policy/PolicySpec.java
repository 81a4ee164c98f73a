package io.servesim.policy;

import io.servesim.config.ConfigException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A policy template name plus its numeric/string parameters, as bound from config
 * ({@code policies.priority: {name: slo-based, params: {age_weight: 0.5}}}).
 *
 * @param name   template name, looked up in a registry
 * @param params parameters (values are Double, String, List or Map), validated by the template's factory
 * @param path   config path of this policy, for error messages
 */
public record PolicySpec(String name, Map<String, Object> params, String path) {
    public PolicySpec {
        params = Map.copyOf(params);
    }

    public static PolicySpec of(String name, String path) {
        return new PolicySpec(name, Map.of(), path);
    }

    /** Fails unless every parameter key is in {@code allowed}, naming every key that is not. */
    public void requireOnly(Set<String> allowed) {
        List<ConfigException.Problem> unknown = new ArrayList<>();
        for (String k : new TreeSet<>(params.keySet())) {
            if (!allowed.contains(k)) {
                unknown.add(new ConfigException.Problem(path + ".params." + k, "unknown parameter for '" + name + "'; valid: "
                        + (allowed.isEmpty() ? "(none)" : String.join(", ", new TreeSet<>(allowed)))));
            }
        }
        if (!unknown.isEmpty()) {
            throw new ConfigException(unknown);
        }
    }

    /**
     * A numeric parameter, or {@code dflt} when absent. A given value must be finite: YAML's
     * {@code .inf} or an overflowing literal such as {@code 1e999} is refused rather than left to
     * turn a weighted sum into NaN.
     */
    public double number(String key, double dflt) {
        Object v = params.get(key);
        if (v == null) {
            return dflt;
        }
        if (v instanceof Number n) {
            double d = n.doubleValue();
            if (!Double.isFinite(d)) {
                throw new ConfigException(path + ".params." + key, "must be a finite number, got " + v);
            }
            return d;
        }
        String got = v instanceof List<?> ? "a list" : v instanceof Map<?, ?> ? "a mapping" : "'" + v + "'";
        throw new ConfigException(path + ".params." + key, "must be a number, got " + got);
    }

    /** A numeric parameter that must be > 0 (and is required when {@code dflt} is NaN). */
    public double positive(String key, double dflt) {
        double v = number(key, dflt);
        if (!(v > 0)) {
            throw new ConfigException(path + ".params." + key, "required, must be > 0");
        }
        return v;
    }

    /** A numeric parameter that must be >= 0, such as a weight; {@code dflt} when absent. A {@code -0.0} reads as 0. */
    public double nonNegative(String key, double dflt) {
        double v = number(key, dflt);
        if (!(v >= 0)) {
            throw new ConfigException(path + ".params." + key, "must be >= 0");
        }
        return v + 0.0; // -0.0 + 0.0 is +0.0
    }

    /** A numeric parameter in [0, 1], such as a discount; {@code dflt} when absent. */
    public double fraction(String key, double dflt) {
        double v = number(key, dflt);
        if (!(v >= 0 && v <= 1)) {
            throw new ConfigException(path + ".params." + key, "must be in [0, 1], got " + v);
        }
        return v;
    }

    /** A map-valued parameter of numbers (e.g. per-class scores), or {@code dflt} when absent. */
    public Map<String, Double> numberMap(String key, Map<String, Double> dflt) {
        Object v = params.get(key);
        if (v == null) {
            return dflt;
        }
        if (!(v instanceof Map<?, ?> m)) {
            throw new ConfigException(path + ".params." + key, "must be a map of name: number");
        }
        Map<String, Double> out = new TreeMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (!(e.getValue() instanceof Number n)) {
                throw new ConfigException(path + ".params." + key + "." + e.getKey(), "must be a number");
            }
            out.put(String.valueOf(e.getKey()), n.doubleValue());
        }
        return out;
    }

    /** A string parameter from {@code valid} (the error lists them), or {@code dflt} when absent. */
    public String choice(String key, String dflt, java.util.Collection<String> valid) {
        Object v = params.get(key);
        if (v == null) {
            return dflt;
        }
        if (!(v instanceof String s) || !valid.contains(s)) {
            throw new ConfigException(path + ".params." + key, "unknown value '" + v + "'; valid: " + String.join(", ", valid));
        }
        return s;
    }

    /** A duration parameter written with a unit ({@code 60s}, {@code 500ms}; {@link io.servesim.config.Durations}), in us. */
    public long durationUs(String key, long dfltUs) {
        Object v = params.get(key);
        if (v == null) {
            return dfltUs;
        }
        return io.servesim.config.Durations.parseUs(v instanceof String s ? s : String.valueOf(v), path + ".params." + key);
    }
}
