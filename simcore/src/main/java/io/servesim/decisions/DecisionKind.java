package io.servesim.decisions;

/** What a {@link DecisionRecord} decided. */
public enum DecisionKind {
    /** Admit, reject or delay a request at the cluster's front door. */
    ADMISSION,
    /** The priority score assigned to an admitted request. */
    PRIORITY,
    /** The instance an admitted request is sent to. */
    ROUTING,
    /** A running request evicted by its instance's scheduler to free KV blocks. */
    PREEMPTION,
    /**
     * P/D disaggregation: whether a request's prefill runs on the prefill pool ({@code remote}) or
     * with its decode on the decode pool ({@code local}).
     */
    DISAGGREGATION,
    /**
     * An autoscaler check whose policy asked for a different replica count: the action taken
     * (from -> to replicas), or none when the bounds clamped it away.
     */
    SCALE
}
