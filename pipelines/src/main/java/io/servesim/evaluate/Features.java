package io.servesim.evaluate;

import io.servesim.decisions.TraceSummary;
import io.servesim.metrics.RunSummary;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Behaviour descriptors of a run for quality-diversity search (MAP-Elites, as OpenEvolve's
 * {@code feature_dimensions} bins them by name): how a policy behaves, not how good it is. Each
 * is in [0, 1]:
 * <ul>
 *   <li>{@code routing_concentration}: the busiest instance's share of routed requests, rescaled
 *       from [1/N, 1] (perfectly spread) to [0, 1] (everything on one instance); 0 with one instance;</li>
 *   <li>{@code rejection_rate}: the metric of that name, rejected / injected;</li>
 *   <li>{@code preemption_pressure}: {@code preemptions_per_request}, capped at 1;</li>
 *   <li>{@code prefix_hit_rate}: the metric of that name, prefix-cache hit tokens / looked-up tokens.</li>
 * </ul>
 * A descriptor that is a metric of the catalog has its name and value.
 */
final class Features {
    private Features() {
    }

    static Map<String, Double> of(RunSummary s, TraceSummary trace) {
        Map<String, Double> f = new LinkedHashMap<>();
        f.put("routing_concentration", concentration(trace.targets(), s.cluster().instances()));
        f.put("rejection_rate", s.number("rejection_rate"));
        f.put("preemption_pressure", Math.min(1, s.number("preemptions_per_request")));
        f.put("prefix_hit_rate", s.number("prefix_hit_rate"));
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
