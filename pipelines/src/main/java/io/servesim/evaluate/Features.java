package io.servesim.evaluate;

import io.servesim.decisions.TraceSummary;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Behaviour descriptors of a run for quality-diversity search (MAP-Elites, as OpenEvolve's
 * {@code feature_dimensions} bins them by name): how a policy behaves, not how good it is. Each
 * is in [0, 1]:
 * <ul>
 *   <li>{@code routing_concentration}: the busiest instance's share of routed requests, rescaled
 *       from [1/N, 1] (perfectly spread) to [0, 1] (everything on one instance); 0 with one instance;</li>
 *   <li>{@code rejection_rate}: rejected / injected;</li>
 *   <li>{@code preemption_pressure}: preemptions per injected request, capped at 1;</li>
 *   <li>{@code cache_hit_rate}: prefix-cache hit tokens / looked-up tokens.</li>
 * </ul>
 */
final class Features {
    private Features() {
    }

    static Map<String, Double> of(RawMetrics raw, TraceSummary trace) {
        Map<String, Double> f = new LinkedHashMap<>();
        f.put("routing_concentration", concentration(trace.targets(), raw.summary().cluster().instances()));
        f.put("rejection_rate", raw.rejectionRate());
        f.put("preemption_pressure", Math.min(1, raw.preemptionRate()));
        double hit = raw.summary().prefixHitRate();
        f.put("cache_hit_rate", Double.isNaN(hit) ? 0 : hit);
        return f;
    }

    private static double concentration(Map<Integer, Long> targets, int n) {
        long total = targets.values().stream().mapToLong(Long::longValue).sum();
        if (total == 0 || n <= 1) {
            return 0;
        }
        double top = (double) targets.values().stream().mapToLong(Long::longValue).max().getAsLong() / total;
        return (top - 1.0 / n) / (1 - 1.0 / n);
    }
}
