package io.servesim.policy.autoscale;

import io.servesim.cluster.ScaleSignals;
import io.servesim.config.ConfigException;
import io.servesim.config.Setting;
import io.servesim.policy.PolicySpec;
import java.util.Arrays;
import java.util.List;

/** The per-replica signal a threshold or target-utilization policy scales on ({@code signal:} param). */
enum ScaleMetric {
    /** Mean share of KV blocks in use (vLLM's {@code gpu_cache_usage_perc}). */
    KV_UTILIZATION("kv_utilization"),
    /** Mean waiting requests per replica (vLLM's {@code num_requests_waiting}). */
    QUEUE_DEPTH("queue_depth"),
    /** Mean requests in flight per replica (llm-d EPP's running + waiting request count). */
    IN_FLIGHT("in_flight"),
    /** Windowed request rate per current replica, requests per second. */
    REQUEST_RATE_PER_REPLICA("request_rate_per_replica");

    private final String configName;

    ScaleMetric(String configName) {
        this.configName = configName;
    }

    static List<String> names() {
        return Arrays.stream(values()).map(m -> m.configName).toList();
    }

    static ScaleMetric of(String name) {
        for (ScaleMetric m : values()) {
            if (m.configName.equals(name)) {
                return m;
            }
        }
        throw new IllegalArgumentException(name);
    }

    /**
     * The threshold or target {@code level} of {@code spec}, compared with this signal; refused above 1 for
     * {@link #KV_UTILIZATION}, a share of the KV blocks in use that never exceeds 1 (a threshold above it would never
     * be crossed).
     */
    double threshold(PolicySpec spec, Setting<Double> level) {
        double value = spec.get(level);
        if (this == KV_UTILIZATION && !(value >= 0 && value <= 1)) {
            throw new ConfigException(spec.path() + ".params." + level.key(), "must be in [0, 1]: signal kv_utilization is"
                    + " the share of KV blocks in use, never above 1, so this would never be reached; got " + value);
        }
        return value;
    }

    /** The signal's name and value at {@code s}, e.g. {@code in_flight 14.2}, for scale decisions' reasons. */
    String describe(ScaleSignals s) {
        return configName + " " + number(value(s));
    }

    /** Four significant digits, locale-independent (the autoscale policies' reasons). */
    static String number(double x) {
        return String.format(java.util.Locale.ROOT, "%.4g", x);
    }

    double value(ScaleSignals s) {
        return switch (this) {
            case KV_UTILIZATION -> s.avgKvUtilization();
            case QUEUE_DEPTH -> s.avgQueueDepth();
            case IN_FLIGHT -> s.avgInFlight();
            case REQUEST_RATE_PER_REPLICA -> s.requestRatePerS() / Math.max(1, s.currentReplicas());
        };
    }
}
