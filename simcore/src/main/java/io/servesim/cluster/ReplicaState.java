package io.servesim.cluster;

import java.util.Locale;

/**
 * The lifecycle of an autoscaled replica ({@code InstanceState} of BLIS macro plan, PR 12:
 * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md};
 * after the phases of a Kubernetes pod running vLLM):
 * <pre>
 *  scale-up                                                          scale-down
 *     |                                                                  |
 *     v    provisioning_delay     weights / load bandwidth     warmup    v       in flight = 0
 * PROVISIONING ----------> LOADING ----------------> WARMING --------> READY ---> DRAINING -----> gone
 *     |  (node + pod start)         (model load)            (CUDA graphs)          (drain policy)
 *     +--- scale-down before READY: gone at once (nothing runs there yet) ---------------------->
 * </pre>
 * Only READY replicas receive requests. "Gone" is not a state: the replica's slot is free.
 */
public enum ReplicaState {
    PROVISIONING, LOADING, WARMING, READY, DRAINING;

    private static final ReplicaState[] VALUES = values();

    /** Whether the replica is on its way to READY (counts toward the bounds with the ready ones). */
    public boolean starting() {
        return this == PROVISIONING || this == LOADING || this == WARMING;
    }

    /** Key in summaries, e.g. {@code provisioning}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    static ReplicaState of(int ordinal) {
        return VALUES[ordinal];
    }
}
