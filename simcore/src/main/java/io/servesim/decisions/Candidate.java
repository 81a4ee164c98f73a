package io.servesim.decisions;

import java.util.Map;

/**
 * One instance a routing policy could have chosen, with the total score the policy gave it and the
 * score's components (e.g. weighted-scoring's {@code cache_affinity}, {@code load}), as BLIS's macro plan
 * keeps the top K per routing decision (BLIS macro plan, PR 18 {@code TopKCandidates}:
 * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}).
 *
 * @param instance  instance id
 * @param score     the policy's total score for it (higher is better), dimensionless
 * @param breakdown score component -> its value for this instance, unweighted, dimensionless
 */
public record Candidate(int instance, double score, Map<String, Double> breakdown) {
    public Candidate {
        breakdown = Map.copyOf(breakdown);
    }
}
