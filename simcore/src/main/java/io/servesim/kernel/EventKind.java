package io.servesim.kernel;

/**
 * Event types of the kernel, in tie-break order: at equal time, a lower {@link #priority()} runs
 * first (then insertion order). Cluster control-plane events come before instance events; within
 * an instance a request that arrives at the moment a step starts is enqueued before the step forms
 * its batch, as in vLLM where the scheduler sees everything queued by the time it runs
 * (named priorities keep output byte-identical, as BLIS does in {@code sim/event.go}).
 */
public enum EventKind {
    /** A periodic scrape of instance signals (stale observability); before decisions at the same time. */
    SNAPSHOT_REFRESH,
    /** A client's request reaches the cluster front door (admission, routing follow). */
    CLUSTER_ARRIVAL,
    /** Admission decision, after the admission latency or a DELAY. */
    ADMISSION,
    /** Routing decision, after the routing latency. */
    ROUTING,
    /** A request reaches an instance; queueing delay (blackbox alpha) starts. */
    ARRIVAL,
    /** The request enters the instance's wait queue (drop guards run here). */
    QUEUED,
    /**
     * P/D: a prefill instance computed a request's prompt and first token (at the end of that step);
     * its KV handoff to a decode instance starts. Before the steps at the same time, so a decode
     * instance's next step already sees the blocks this handoff reserves.
     */
    PREFILL_DONE,
    /** P/D: a transfer on a KV link may have moved its last byte (stale when the link's shares changed since). */
    KV_TRANSFER,
    /** P/D: a request's KV arrived at its decode instance (ownership moves); before a step at the same time. */
    KV_RECEIVED,
    /**
     * A request's blocking KV reload from the CPU tier completed; before a step at the same time, so
     * the step sees it (vLLM handles {@code finished_recving} before it schedules).
     */
    KV_LOADED,
    /** One engine iteration: schedule batch, execute, complete, schedule next. */
    STEP,
    /** A request finished and leaves the instance (records are emitted; follow-ups may be injected). */
    REQUEST_LEFT,
    /** A periodic autoscaler check (after all request work at the same time). */
    SCALE_CHECK,
    /** An autoscaled replica finished a lifecycle phase (provisioning, loading, warm-up). */
    REPLICA_LIFECYCLE;

    private static final EventKind[] VALUES = values();

    public int priority() {
        return ordinal();
    }

    static EventKind of(int ordinal) {
        return VALUES[ordinal];
    }
}
