package io.servesim.cluster;

import io.servesim.config.ConfigNode;
import io.servesim.config.Durations;

/**
 * Binds {@code autoscaling:}. Durations are written with units ({@code 30s}, {@code 500ms},
 * {@code 250us}). Defaults: HPA's 15 s sync period as the check interval; 30 s provisioning (a
 * node already in the pool starting a pod); weights read at 2 GB/s (a local NVMe or a 16 Gbit/s
 * network volume); 30 s warm-up (vLLM's CUDA-graph capture and profiling run); a 60 s signal
 * window; a 300 s oscillation window (HPA's default scale-down stabilization window). With {@code enabled: false} (the default) only {@code gpu_price_per_hour} may be given
 * (the fixed fleet's cost); any other key is refused rather than ignored. {@code policy} (the
 * autoscale policy, the other spelling of {@code policies.autoscale}) is bound with the other policies.
 */
public final class AutoscalingBinder {
    static final long DEFAULT_CHECK_US = 15_000_000;
    static final long DEFAULT_PROVISIONING_US = 30_000_000;
    static final double DEFAULT_LOAD_GB_PER_S = 2.0;
    static final long DEFAULT_WARMUP_US = 30_000_000;
    static final long DEFAULT_WINDOW_US = 60_000_000;
    /** HPA's default scale-down stabilization window: a reversal within it is what stabilization prevents. */
    static final long DEFAULT_OSCILLATION_US = 300_000_000;

    /** Keys that apply only while enabled; {@code policy} (the autoscale policy) is bound with the other policies. */
    private static final String[] ACTIVE_KEYS = {"min", "max", "check_interval", "provisioning_delay", "load_time",
        "load_bandwidth_gb_per_s", "warmup_duration", "window", "oscillation_window", "drain_policy", "policy"};

    private AutoscalingBinder() {
    }

    /** Binds {@code a}; {@code instances} (deployment.instances, the initial fleet) must lie within the bounds. */
    public static AutoscalingConfig bind(ConfigNode a, int instances) {
        boolean enabled = a.boolValue("enabled", false);
        double price = a.doubleValue("gpu_price_per_hour", Double.NaN, 0, 1e6);
        if (!enabled) {
            a.declare(ACTIVE_KEYS);
            a.finish();
            for (String k : ACTIVE_KEYS) {
                if (a.has(k)) {
                    a.problem(a.pathOf(k), "only applies with autoscaling.enabled: true");
                }
            }
            return AutoscalingConfig.DISABLED.withPrice(price);
        }
        a.declare("policy");
        int min = a.intValue("min", 1, 1, 100_000);
        int max = a.intValue("max", Math.max(min, instances), 1, 100_000);
        long check = Durations.value(a, "check_interval", DEFAULT_CHECK_US);
        long provisioning = Durations.value(a, "provisioning_delay", DEFAULT_PROVISIONING_US);
        a.declare("load_time");
        long loadUs = a.has("load_time") ? Durations.value(a, "load_time", 0) : -1;
        double bandwidth = a.doubleValue("load_bandwidth_gb_per_s", loadUs >= 0 ? Double.NaN : DEFAULT_LOAD_GB_PER_S,
                1e-6, 1e6);
        if (a.has("load_time") && a.has("load_bandwidth_gb_per_s")) {
            a.problem(a.pathOf("load_time"), "give load_time or load_bandwidth_gb_per_s, not both");
        }
        long warmup = Durations.value(a, "warmup_duration", DEFAULT_WARMUP_US);
        long window = Durations.value(a, "window", DEFAULT_WINDOW_US);
        long oscillation = Durations.value(a, "oscillation_window", DEFAULT_OSCILLATION_US);
        DrainPolicy drain = DrainPolicy.of(a.choice("drain_policy", "wait", DrainPolicy.names()));
        a.finish();
        boolean boundsValid = max >= min;
        if (!boundsValid) {
            a.problem(a.pathOf("max"), "must be >= autoscaling.min (" + min + "), got " + max);
            max = min;
        }
        if (boundsValid && (instances < min || instances > max)) {
            a.problem("deployment.instances", "the initial fleet must lie within autoscaling.min..max (" + min + ".." + max
                    + "), got " + instances);
        }
        if (check < 1) {
            a.problem(a.pathOf("check_interval"), "must be > 0");
            check = DEFAULT_CHECK_US;
        }
        if (window < 1) {
            a.problem(a.pathOf("window"), "must be > 0");
            window = DEFAULT_WINDOW_US;
        }
        return new AutoscalingConfig(true, min, max, check, provisioning, loadUs, bandwidth, warmup, drain, window, oscillation, price);
    }
}
