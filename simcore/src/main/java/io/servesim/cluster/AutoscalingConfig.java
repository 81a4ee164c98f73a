package io.servesim.cluster;

/**
 * The {@code autoscaling:} section ({@link AutoscalingSettings}): bounds, the scale-check period and the actuation
 * model of a new replica (BLIS macro plan, D.6 and PR 12: inference-sim/inference-sim @ 7d4e8bac,
 * {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}; Kubernetes HPA's sync period). The
 * policy itself is {@code autoscaling.policy} or {@code policies.autoscale} (one of them), bound with the
 * other policies.
 *
 * @param enabled           whether replicas come and go; off: the fixed fleet of {@code deployment.instances}
 * @param minReplicas       lower bound on ready + starting replicas
 * @param maxReplicas       upper bound on ready + starting replicas (also the number of replica slots)
 * @param checkIntervalUs   period of the ScaleCheck event (HPA's sync period is 15 s)
 * @param provisioningUs    node + pod start before the weights load
 * @param loadUs            weight loading time: explicit {@code load_time}, or model bytes / {@code load_bandwidth_gb_per_s}
 *                          (settled by {@link #resolveLoad}; -1 until then)
 * @param loadBandwidthGbPerS weight read bandwidth per replica, GB/s (NaN when {@code load_time} is given)
 * @param warmupUs          CUDA graph capture, compilation and warm-up after loading
 * @param drain             what a scale-down does to the victim's work
 * @param windowUs          window of the windowed signals (request rate, SLO attainment)
 * @param oscillationWindowUs an up followed by a down (or the reverse) within it is an oscillation
 * @param usdPerGpuHour     price of one GPU-hour; NaN when unknown (cost is then null)
 */
public record AutoscalingConfig(boolean enabled, int minReplicas, int maxReplicas, long checkIntervalUs,
                                long provisioningUs, long loadUs, double loadBandwidthGbPerS, long warmupUs, DrainPolicy drain, long windowUs,
                                long oscillationWindowUs, double usdPerGpuHour) {
    /** Autoscaling off (a fleet of one; the periods are the settings' defaults, never used). */
    public static final AutoscalingConfig DISABLED = new AutoscalingConfig(false, 1, 1,
            AutoscalingSettings.CHECK_INTERVAL.defaultValue(), 0, 0, Double.NaN, 0, DrainPolicy.WAIT,
            AutoscalingSettings.WINDOW.defaultValue(), AutoscalingSettings.OSCILLATION_WINDOW.defaultValue(), Double.NaN);

    public AutoscalingConfig {
        if (minReplicas < 1 || maxReplicas < minReplicas || checkIntervalUs < 1 || provisioningUs < 0 || loadUs < -1
                || warmupUs < 0 || windowUs < 1 || oscillationWindowUs < 0) {
            throw new IllegalArgumentException("invalid autoscaling config");
        }
    }

    /** Decision to ready, the lag of a scale-up (provisioning + load + warm-up). */
    public long startupUs() {
        return provisioningUs + loadUs + warmupUs;
    }

    /**
     * This config with the load time settled: the given {@code load_time}, else the weights
     * ({@code weightBytes}, the whole model, as every replica reads its own copy from storage) over
     * the load bandwidth. NaN bytes (model size unknown) leave it unsettled (-1).
     */
    public AutoscalingConfig resolveLoad(double weightBytes) {
        long us = loadUs >= 0 ? loadUs
                : Double.isNaN(weightBytes) ? -1 : Math.round(weightBytes / (loadBandwidthGbPerS * 1e9) * 1e6);
        return new AutoscalingConfig(enabled, minReplicas, maxReplicas, checkIntervalUs, provisioningUs, us,
                loadBandwidthGbPerS, warmupUs, drain, windowUs, oscillationWindowUs, usdPerGpuHour);
    }

    /** This config with the GPU price settled. */
    public AutoscalingConfig withPrice(double usd) {
        return new AutoscalingConfig(enabled, minReplicas, maxReplicas, checkIntervalUs, provisioningUs, loadUs,
                loadBandwidthGbPerS, warmupUs, drain, windowUs, oscillationWindowUs, usd);
    }
}
