package io.servesim.policy.priority;

import io.servesim.config.ValueType;

/** The range of a priority score. */
final class Scores {
    /** A score: it only orders requests. */
    static final ValueType.Real TYPE = ValueType.real(-1e6, 1e6).in("", "a score only orders requests; beyond 10^6 it"
            + " would outweigh 11 days of waiting at age_weight 1");

    private Scores() {
    }
}
