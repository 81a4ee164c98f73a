package io.servesim.decisions;

/**
 * What a {@link DecisionRecord} decided. Scale actions join this set when the cluster gets an
 * autoscaler; until then there is nothing to record for them.
 */
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
    DISAGGREGATION
}
