package io.servesim.policy.autoscale;

import io.servesim.config.Setting;
import io.servesim.config.ValueType;

/** The parameters several autoscale templates declare alike: the signal scaled on, levels of it, the cooldown. */
final class AutoscaleParams {
    /** A level of a signal (a threshold, a target, a spare), in the signal's unit. */
    static final ValueType.Real LEVEL = ValueType.real(0, 1e6).in("in the signal's unit", "a share of KV blocks,"
            + " requests per replica or requests/s per replica: no replica holds or serves 10^6");
    /** A share of the KV blocks in use (a utilization compared with the mean KV utilization). */
    static final ValueType.Real KV_SHARE = ValueType.real(0, 1).in("", "compared with the mean KV utilization, the share"
            + " of KV blocks in use, never above 1, so a larger value would never be reached");

    private AutoscaleParams() {
    }

    /** Where template {@code policy}'s parameters are declared. */
    static String at(String policy) {
        return "policies.autoscale[" + policy + "].params.";
    }

    /** The per-replica signal template {@code policy} scales on (default {@code kv_utilization}). */
    static Setting<String> signal(String policy) {
        return Setting.of(at(policy) + "signal", ValueType.choice(ScaleMetric.names()), "kv_utilization",
                "The per-replica signal scaled on: kv_utilization (vLLM's gpu_cache_usage_perc), queue_depth"
                        + " (num_requests_waiting), in_flight (llm-d EPP's running + waiting) or request_rate_per_replica.");
    }

    /** No action within this long of the last one. */
    static Setting<Long> cooldown(String policy, long dfltUs) {
        return Setting.of(at(policy) + "cooldown", ValueType.duration(0, 3_600_000_000L).because("an autoscaler that waits"
                + " over an hour between actions does not follow load"), dfltUs, "No scale action within this long of the last.");
    }
}
