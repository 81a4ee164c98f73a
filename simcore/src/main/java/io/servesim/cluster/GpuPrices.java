package io.servesim.cluster;

import java.util.Map;
import java.util.OptionalDouble;

/**
 * On-demand price per GPU-hour (US dollars) by GPU short name, for the autoscaling cost metric
 * (cost = replica-seconds / 3600 x price x TP). Each value is the midpoint of the "specialty
 * provider" on-demand range of the Mercatus cloud GPU pricing survey (mercatus-ai.com/blog/cloud-gpu-pricing,
 * May 2026: A100 80GB $1.10-1.50, H100 SXM5 $2.50-3.50, H200 SXM5 $3.50-4.50). Hyperscaler list
 * prices are higher (AWS p5.48xlarge $98.32/h for 8 H100 = $12.29 per GPU-hour). GPUs without a
 * sourced price here (B200, L40S, RTX4090, RTXPRO6000) have no cost unless
 * {@code autoscaling.gpu_price_per_hour} gives one, which also overrides this table.
 */
public final class GpuPrices {
    private static final Map<String, Double> USD_PER_GPU_HOUR = Map.of(
            "A100-80GB", 1.30,
            "H100", 3.00,
            "H200", 4.00);

    private GpuPrices() {
    }

    /** The GPUs the table prices, sorted. */
    public static String known() {
        return String.join(", ", new java.util.TreeSet<>(USD_PER_GPU_HOUR.keySet()));
    }

    /** The table's price for {@code hardware} (case-insensitive), empty when it has none. */
    public static OptionalDouble of(String hardware) {
        if (hardware == null) {
            return OptionalDouble.empty();
        }
        for (Map.Entry<String, Double> e : USD_PER_GPU_HOUR.entrySet()) {
            if (e.getKey().equalsIgnoreCase(hardware)) {
                return OptionalDouble.of(e.getValue());
            }
        }
        return OptionalDouble.empty();
    }
}
