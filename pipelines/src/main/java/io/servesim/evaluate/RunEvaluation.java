package io.servesim.evaluate;

import io.servesim.decisions.TraceSummary;
import java.util.Map;

/**
 * One run of a candidate (one workload and seed): its fitness under the run's fitness weights
 * ({@code metrics.FitnessWeights}), raw metrics, behaviour descriptors and decision-trace summary.
 *
 * @param label    which workload and seed, e.g. {@code llama8b-h100.yaml@seed=1}
 * @param fitness  weighted fitness, in [0, sum of weights]
 * @param raw      raw metrics
 * @param features behaviour descriptors ({@link Features})
 * @param trace    the run's decisions in brief
 */
public record RunEvaluation(String label, double fitness, RawMetrics raw, Map<String, Double> features,
                            TraceSummary trace) {
}
