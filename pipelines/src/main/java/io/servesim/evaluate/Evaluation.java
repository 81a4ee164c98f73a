package io.servesim.evaluate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A candidate evaluated over one or more runs (workloads x seeds): the search loop's fitness is the
 * mean over runs, as are the behaviour descriptors.
 *
 * @param candidate the candidate file as given
 * @param runs      one per workload and seed, in the order given
 */
public record Evaluation(String candidate, List<RunEvaluation> runs) {
    public Evaluation {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("an evaluation needs at least one run");
        }
        runs = List.copyOf(runs);
    }

    /** Mean fitness over the runs. */
    public double fitness() {
        return runs.stream().mapToDouble(RunEvaluation::fitness).average().orElseThrow();
    }

    /** Each descriptor's mean over the runs. */
    public Map<String, Double> features() {
        Map<String, Double> mean = new LinkedHashMap<>();
        for (String k : runs.get(0).features().keySet()) {
            mean.put(k, runs.stream().mapToDouble(r -> r.features().get(k)).average().orElseThrow());
        }
        return mean;
    }

    /** Mean of {@code metric} over the runs, NaN runs skipped (NaN when every run is NaN). */
    double mean(java.util.function.ToDoubleFunction<RunEvaluation> metric) {
        return runs.stream().mapToDouble(metric).filter(x -> !Double.isNaN(x)).average().orElse(Double.NaN);
    }
}
