package io.servesim.metrics;

import io.servesim.config.ConfigException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A scalar fitness over named run metrics for policy search ({@code --fitness-weights
 * "throughput_rps:0.5,ttft_p99_ms:0.3,slo_attainment:0.2"}), after BLIS's {@code --fitness-weights} (BLIS macro plan,
 * PR 9; inference-sim/inference-sim @ 02ed0be2, {@code sim/cluster/metrics.go}, {@code ComputeFitness}): fitness = sum of
 * weight x normalised metric, every normalised metric in [0, 1] with 1 best. A key is a column of the metric catalog
 * that declares how it is normalised ({@link Metric#fitness()}, {@link Normalisation}): latencies
 * {@code 1 / (1 + ms / reference)}, cost and replica-seconds likewise, throughput and goodput over the offered rate,
 * fractions as they are. A key an earlier release used ({@code p99_ttft}) still works as the catalog's name for it
 * ({@link Renamed}), with a note ({@link #notes}) saying so.
 *
 * @param weights the weight of each key
 * @param notes   one line per former key written, naming the catalog's name for it
 */
public record FitnessWeights(Map<String, Double> weights, List<String> notes) {
    /** Every fitness key: the catalog's columns with a fitness rule, in catalog order. */
    public static final List<String> KEYS = MetricCatalog.COLUMNS.stream().filter(c -> c.fitness() != null).map(Column::name)
            .toList();

    public static final FitnessWeights NONE = new FitnessWeights(Map.of(), List.of());

    public FitnessWeights {
        weights = Map.copyOf(weights);
        notes = List.copyOf(notes);
    }

    /** Parses {@code key:weight,key:weight}; {@code path} names the option or config key for errors. */
    public static FitnessWeights parse(String spec, String path) {
        Map<String, Double> w = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        if (spec == null || spec.isBlank()) {
            return NONE;
        }
        for (String part : spec.split(",")) {
            String[] kv = part.trim().split(":");
            if (kv.length != 2) {
                throw new ConfigException(path, "expected key:weight pairs separated by commas, got '" + part.trim() + "'");
            }
            String key = kv[0].trim();
            Optional<Renamed> renamed = Renamed.of(key, Renamed.Where.FITNESS);
            if (renamed.isPresent()) {
                notes.add(path + ": '" + key + "' is now named '" + renamed.get().now() + "' (the old name still works;"
                        + " write the new one)");
                key = renamed.get().now();
            }
            if (!KEYS.contains(key)) {
                throw new ConfigException(path, "unknown fitness metric '" + key + "'; valid: " + String.join(", ", KEYS));
            }
            if (w.containsKey(key)) {
                throw new ConfigException(path, "'" + key + "' is weighted twice");
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
        if (w.values().stream().allMatch(x -> x == 0)) {
            throw new ConfigException(path, "every weight is 0, so every run's fitness would be 0 and nothing ranks above"
                    + " anything; give at least one metric a positive weight");
        }
        return new FitnessWeights(w, notes);
    }

    public boolean isEmpty() {
        return weights.isEmpty();
    }

    /** Whether {@code key} has a weight. */
    public boolean has(String key) {
        return weights.containsKey(key);
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

    /** The fitness key {@code key}'s normalised value in {@code s}, in [0, 1] (NaN when the metric is undefined). */
    static double normalised(String key, RunSummary s) {
        Column c = MetricCatalog.column(key);
        return c.fitness().score(c.number(s), s);
    }
}
