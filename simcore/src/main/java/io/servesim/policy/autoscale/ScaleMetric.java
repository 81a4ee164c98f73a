package io.servesim.policy.autoscale;

import io.servesim.cluster.ScaleSignals;
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
