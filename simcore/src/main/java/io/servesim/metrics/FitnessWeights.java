package io.servesim.metrics;

import io.servesim.config.ConfigException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scalar fitness over named run metrics for policy search ({@code --fitness-weights
 * "throughput:0.5,p99_ttft:0.3,slo_attainment:0.2"}): fitness = sum of weight x normalised metric,
 * every normalised metric in [0, 1] with 1 best:
 * <ul>
 *   <li>{@code throughput}: completed / injected (open-loop load fixes the offered rate, so the
 *       served share is the throughput a policy controls);</li>
 *   <li>{@code mean_ttft}, {@code p99_ttft}: 1 / (1 + ms / 1000); {@code mean_e2e}, {@code p99_e2e}:
 *       1 / (1 + ms / 10000); {@code mean_tpot}, {@code p99_tpot}: 1 / (1 + ms / 100);</li>
 *   <li>{@code slo_attainment}, {@code goodput_share} (SLO-meeting completed / injected),
 *       {@code jain_fairness}, {@code cache_hit_rate}: as they are;</li>
 *   <li>{@code rejection_rate}: 1 - rejected / injected.</li>
 * </ul>
 */
public record FitnessWeights(Map<String, Double> weights) {
    public static final List<String> KEYS = List.of("throughput", "mean_ttft", "p99_ttft", "mean_e2e", "p99_e2e",
            "mean_tpot", "p99_tpot", "slo_attainment", "goodput_share", "jain_fairness", "cache_hit_rate", "rejection_rate");

    public static final FitnessWeights NONE = new FitnessWeights(Map.of());

    public FitnessWeights {
        weights = Map.copyOf(weights);
    }

    /** Parses {@code key:weight,key:weight}; {@code path} names the option or config key for errors. */
    public static FitnessWeights parse(String spec, String path) {
        Map<String, Double> w = new LinkedHashMap<>();
        if (spec == null || spec.isBlank()) {
            return NONE;
        }
        for (String part : spec.split(",")) {
            String[] kv = part.trim().split(":");
            if (kv.length != 2) {
                throw new ConfigException(path, "expected key:weight pairs separated by commas, got '" + part.trim() + "'");
            }
            String key = kv[0].trim();
            if (!KEYS.contains(key)) {
                throw new ConfigException(path, "unknown fitness metric '" + key + "'; valid: " + String.join(", ", KEYS));
            }
            double weight;
            try {
                weight = Double.parseDouble(kv[1].trim());
            } catch (NumberFormatException e) {
                throw new ConfigException(path, "weight of '" + key + "' is not a number: '" + kv[1].trim() + "'");
            }
            if (!(weight >= 0) || Double.isInfinite(weight)) {
                throw new ConfigException(path, "weight of '" + key + "' must be >= 0");
            }
            w.put(key, weight);
        }
        return new FitnessWeights(w);
    }

    public boolean isEmpty() {
        return weights.isEmpty();
    }

    /** The fitness of a run; NaN metrics (e.g. no completions) count as 0. */
    public double score(RunSummary s) {
        double total = 0;
        for (Map.Entry<String, Double> e : weights.entrySet()) {
            double v = normalised(e.getKey(), s);
            total += e.getValue() * (Double.isNaN(v) ? 0 : v);
        }
        return total;
    }

    static double normalised(String key, RunSummary s) {
        var c = s.cluster();
        double injected = Math.max(1, s.injected());
        return switch (key) {
            case "throughput" -> s.completed() / injected;
            case "mean_ttft" -> inverse(s.ttftMs().mean(), 1000);
            case "p99_ttft" -> inverse(s.ttftMs().p99(), 1000);
            case "mean_e2e" -> inverse(s.e2eMs().mean(), 10_000);
            case "p99_e2e" -> inverse(s.e2eMs().p99(), 10_000);
            case "mean_tpot" -> inverse(s.tpotMs().mean(), 100);
            case "p99_tpot" -> inverse(s.tpotMs().p99(), 100);
            case "slo_attainment" -> c.sloAttainment();
            case "goodput_share" -> c.sloMet() / injected;
            case "jain_fairness" -> c.jainFairness();
            case "cache_hit_rate" -> s.cacheHitRate();
            case "rejection_rate" -> 1 - s.rejected() / injected;
            default -> throw new IllegalArgumentException(key);
        };
    }

    private static double inverse(double ms, double refMs) {
        return Double.isNaN(ms) ? Double.NaN : 1 / (1 + ms / refMs);
    }
}
