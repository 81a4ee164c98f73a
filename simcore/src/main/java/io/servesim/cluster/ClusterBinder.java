package io.servesim.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigNode;
import io.servesim.config.Durations;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Binds {@code cluster:} (latencies, observability) and {@code slo:} (per-class targets). */
public final class ClusterBinder {
    private static final List<String> MODES = Arrays.stream(Observability.Kind.values())
            .map(Observability.Kind::configName).toList();

    private ClusterBinder() {
    }

    public static ClusterConfig bind(ConfigNode c, int instances) {
        long admission = c.longValue("admission_latency_us", 0, 0, Durations.MAX_US);
        long routing = c.longValue("routing_latency_us", 0, 0, Durations.MAX_US);
        Observability obs = observability(c.child("observability"));
        c.finish();
        return new ClusterConfig(instances, admission, routing, obs);
    }

    private static Observability observability(ConfigNode o) {
        Map<Signal, Observability.Mode> modes = new EnumMap<>(Signal.class);
        Observability.Mode dflt = o.has("default") ? mode(o, "default") : Observability.Mode.IMMEDIATE;
        for (Signal s : Signal.values()) {
            modes.put(s, o.has(s.configName()) ? mode(o, s.configName()) : dflt);
        }
        o.rawValue("default");
        for (Signal s : Signal.values()) {
            o.rawValue(s.configName());
        }
        o.finish();
        return new Observability(modes);
    }

    private static Observability.Mode mode(ConfigNode parent, String key) {
        JsonNode v = parent.rawValue(key);
        String path = parent.pathOf(key);
        if (v.isTextual()) {
            return switch (v.asText()) {
                case "immediate" -> Observability.Mode.IMMEDIATE;
                case "periodic" -> {
                    parent.problem(path, "periodic needs an interval: {mode: periodic, interval_us: N}");
                    yield Observability.Mode.IMMEDIATE;
                }
                case "on-demand" -> Observability.Mode.onDemand(0);
                default -> {
                    parent.problem(path, "unknown mode '" + v.asText() + "'; valid: " + String.join(", ", MODES));
                    yield Observability.Mode.IMMEDIATE;
                }
            };
        }
        ConfigNode m = parent.child(key);
        String kind = m.choice("mode", null, MODES);
        long interval = m.longValue("interval_us", 0, 1, Durations.MAX_US);
        long latency = m.longValue("latency_us", 0, 0, Durations.MAX_US);
        m.finish();
        if (kind == null) {
            m.problem(m.pathOf("mode"), "required; valid: " + String.join(", ", MODES));
            return Observability.Mode.IMMEDIATE;
        }
        switch (kind) {
            case "periodic" -> {
                if (!m.has("interval_us")) {
                    m.problem(m.pathOf("interval_us"), "required for periodic, must be > 0");
                }
                if (m.has("latency_us")) {
                    m.problem(m.pathOf("latency_us"), "only for on-demand");
                }
                return Observability.Mode.periodic(Math.max(1, interval));
            }
            case "on-demand" -> {
                if (m.has("interval_us")) {
                    m.problem(m.pathOf("interval_us"), "only for periodic");
                }
                return Observability.Mode.onDemand(latency);
            }
            default -> {
                if (m.has("interval_us") || m.has("latency_us")) {
                    m.problem(m.path(), "immediate takes no interval_us or latency_us");
                }
                return Observability.Mode.IMMEDIATE;
            }
        }
    }
}
