package io.servesim.policy.routing;

import io.servesim.config.ValueType;

/** The range of a router's term weights. */
final class Weights {
    /**
     * A relative weight, >= 0: llm-d's scorer weights and Dynamo's {@code overlap_score_weight} are small numbers
     * (default 1); at 1000 the other terms are only tie-breakers.
     */
    static final ValueType<Double> TYPE = ValueType.real(0, 1000).in("", "a relative weight (llm-d's scorer weights and"
            + " Dynamo's overlap_score_weight are small numbers); at 1000 the other terms are only tie-breakers");

    private Weights() {
    }
}
