package io.servesim.cluster;

import io.servesim.config.ConfigNode;
import io.servesim.config.Setting;
import java.util.List;

/**
 * Binds {@code autoscaling:} through {@link AutoscalingSettings} (durations with units: {@code 30s}, {@code 500ms},
 * {@code 250us}). With {@code enabled: false} (the default) only {@code gpu_price_per_hour} may be given (the fixed
 * fleet's cost); any other key is refused rather than ignored. {@code policy} (the autoscale policy, the other
 * spelling of {@code policies.autoscale}) is bound with the other policies.
 */
public final class AutoscalingBinder {
    /** Settings that apply only while enabled. */
    private static final List<Setting<?>> ACTIVE = List.of(AutoscalingSettings.MIN, AutoscalingSettings.MAX,
            AutoscalingSettings.CHECK_INTERVAL, AutoscalingSettings.PROVISIONING_DELAY, AutoscalingSettings.LOAD_TIME,
            AutoscalingSettings.LOAD_BANDWIDTH, AutoscalingSettings.WARMUP_DURATION, AutoscalingSettings.WINDOW,
            AutoscalingSettings.OSCILLATION_WINDOW, AutoscalingSettings.DRAIN_POLICY);
    /** The autoscale policy's key here, bound with the other policies. */
    private static final String POLICY = "policy";

    private AutoscalingBinder() {
    }

    /** Binds {@code a}; {@code instances} (deployment.instances, the initial fleet) must lie within the bounds. */
    public static AutoscalingConfig bind(ConfigNode a, int instances) {
        boolean enabled = a.get(AutoscalingSettings.ENABLED);
        Double given = a.get(AutoscalingSettings.GPU_PRICE_PER_HOUR);
        double price = given == null ? Double.NaN : given;
        a.declare(POLICY);
        if (!enabled) {
            ACTIVE.forEach(s -> a.declare(s.key()));
            a.finish();
            for (Setting<?> s : ACTIVE) {
                refuseWhileDisabled(a, s.key());
            }
            refuseWhileDisabled(a, POLICY);
            return AutoscalingConfig.DISABLED.withPrice(price);
        }
        int min = a.getInt(AutoscalingSettings.MIN);
        Long maxGiven = a.get(AutoscalingSettings.MAX);
        int max = maxGiven == null ? Math.max(min, instances) : Math.toIntExact(maxGiven);
        long check = a.get(AutoscalingSettings.CHECK_INTERVAL);
        long provisioning = a.get(AutoscalingSettings.PROVISIONING_DELAY);
        long loadUs = loadUs(a);
        double bandwidth = loadUs >= 0 ? Double.NaN : a.get(AutoscalingSettings.LOAD_BANDWIDTH);
        long warmup = a.get(AutoscalingSettings.WARMUP_DURATION);
        long window = a.get(AutoscalingSettings.WINDOW);
        long oscillation = a.get(AutoscalingSettings.OSCILLATION_WINDOW);
        DrainPolicy drain = DrainPolicy.of(a.get(AutoscalingSettings.DRAIN_POLICY));
        a.finish();
        boolean boundsValid = max >= min;
        if (!boundsValid) {
            a.problem(a.pathOf(AutoscalingSettings.MAX.key()), "must be >= autoscaling.min (" + min + "), got " + max);
            max = min;
        }
        if (boundsValid && (instances < min || instances > max)) {
            a.problem("deployment.instances", "the initial fleet must lie within autoscaling.min..max (" + min + ".." + max
                    + "), got " + instances);
        }
        return new AutoscalingConfig(true, min, max, check, provisioning, loadUs, bandwidth, warmup, drain, window, oscillation, price);
    }

    /** {@code load_time} when given (its bandwidth then must not be), else -1: derived from the load bandwidth. */
    private static long loadUs(ConfigNode a) {
        String time = AutoscalingSettings.LOAD_TIME.key();
        String bandwidth = AutoscalingSettings.LOAD_BANDWIDTH.key();
        if (!a.has(time)) {
            a.declare(time);
            return -1;
        }
        if (a.has(bandwidth)) {
            a.declare(bandwidth);
            a.problem(a.pathOf(time), "give load_time or load_bandwidth_gb_per_s, not both");
        }
        Long us = a.get(AutoscalingSettings.LOAD_TIME);
        return us == null ? 0 : us; // refused: the problem is recorded
    }

    private static void refuseWhileDisabled(ConfigNode a, String key) {
        if (a.has(key)) {
            a.problem(a.pathOf(key), "only applies with autoscaling.enabled: true");
        }
    }
}
