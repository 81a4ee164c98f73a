package io.servesim.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigNode;
import java.util.EnumMap;
import java.util.Map;

/** Binds {@code cluster:} (latencies, observability) through {@link ClusterSettings}. */
public final class ClusterBinder {
    private ClusterBinder() {
    }

    public static ClusterConfig bind(ConfigNode c, int instances) {
        long admission = c.get(ClusterSettings.ADMISSION_LATENCY);
        long routing = c.get(ClusterSettings.ROUTING_LATENCY);
        Observability obs = observability(c.child("observability"));
        c.finish();
        return new ClusterConfig(instances, admission, routing, obs);
    }

    private static Observability observability(ConfigNode o) {
        Map<Signal, Observability.Mode> modes = new EnumMap<>(Signal.class);
        Observability.Mode dflt = mode(o, "default");
        for (Signal s : Signal.values()) {
            modes.put(s, o.has(s.configName()) ? mode(o, s.configName()) : dflt);
            o.declare(s.configName());
        }
        o.finish();
        return new Observability(modes);
    }

    /** The mode under {@code key} of {@code parent}: a mapping {mode, interval_us, latency_us}, or the mode alone. */
    private static Observability.Mode mode(ConfigNode parent, String key) {
        JsonNode v = parent.rawValue(key);
        if (v != null && v.isTextual()) {
            String kind = parent.get(key, ClusterSettings.MODE);
            if (kind.equals(Observability.Kind.PERIODIC.configName())) {
                parent.problem(parent.pathOf(key), "periodic needs an interval: {mode: periodic, interval_us: N}");
            }
            return kind.equals(Observability.Kind.ON_DEMAND.configName()) ? Observability.Mode.onDemand(0)
                    : Observability.Mode.IMMEDIATE;
        }
        ConfigNode m = parent.child(key);
        m.declare(ClusterSettings.INTERVAL.key(), ClusterSettings.LATENCY.key()); // read as the mode needs them
        boolean given = m.has(ClusterSettings.MODE.key());
        String kind = m.get(ClusterSettings.MODE);
        Observability.Mode mode = given || !m.present() ? ofKind(m, kind) : null;
        if (mode == null) {
            m.problem(m.pathOf(ClusterSettings.MODE.key()), "required; valid: " + String.join(", ", ClusterSettings.MODES));
        }
        m.finish();
        return mode == null ? Observability.Mode.IMMEDIATE : mode;
    }

    /** The mode of mapping {@code m} of mode {@code kind}, with the interval or latency that kind takes. */
    private static Observability.Mode ofKind(ConfigNode m, String kind) {
        boolean interval = m.has(ClusterSettings.INTERVAL.key());
        boolean latency = m.has(ClusterSettings.LATENCY.key());
        if (kind.equals(Observability.Kind.PERIODIC.configName())) {
            if (!interval) {
                m.problem(m.pathOf(ClusterSettings.INTERVAL.key()), "required for periodic, must be > 0");
            }
            if (latency) {
                m.problem(m.pathOf(ClusterSettings.LATENCY.key()), "only for on-demand");
            }
            Long us = m.get(ClusterSettings.INTERVAL);
            return us == null ? Observability.Mode.IMMEDIATE : Observability.Mode.periodic(us);
        }
        if (kind.equals(Observability.Kind.ON_DEMAND.configName())) {
            if (interval) {
                m.problem(m.pathOf(ClusterSettings.INTERVAL.key()), "only for periodic");
            }
            return Observability.Mode.onDemand(m.get(ClusterSettings.LATENCY));
        }
        if (interval || latency) {
            m.problem(m.path(), "immediate takes no interval_us or latency_us");
        }
        return Observability.Mode.IMMEDIATE;
    }
}
