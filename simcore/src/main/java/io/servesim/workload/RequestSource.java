package io.servesim.workload;

import io.servesim.engine.Request;

/**
 * A lazy stream of requests in non-decreasing arrival order. The simulation pulls the next request
 * only when the previous one has arrived, so memory stays proportional to requests in the system,
 * not to the workload's length.
 */
public interface RequestSource extends AutoCloseable {
    /** The next request, or null when the workload is exhausted. */
    Request next();

    /**
     * Called when a request of this source leaves the system: completed or dropped at its instance
     * (at the client-visible completion time), or rejected by admission (at the decision time;
     * {@link Request#state()} is then REJECTED). Closed-loop workloads (conversations, agent
     * sessions) use {@code inject} to add follow-up requests arriving at or after {@code nowUs},
     * possibly later (the kernel queues them as future arrivals); requests given to {@code inject}
     * bypass {@link #next()}'s ordering.
     */
    default void onLeft(Request r, long nowUs, java.util.function.Consumer<Request> inject) {
    }

    /**
     * Whether {@link #next()}, having given null, has requests again: a staged load's next stage starts once the
     * previous one drained. Asked after each {@link #onLeft}; true once per resumption.
     */
    default boolean resumed() {
        return false;
    }

    /** Session records (agentic workloads) go to {@code sink}; called once, before the first {@link #next()}. */
    default void reportSessionsTo(io.servesim.metrics.SessionSink sink) {
    }

    /**
     * The run ended at {@code endUs}, cut by the horizon or not: sessions still open are reported
     * (called once, after the last {@link #onLeft}).
     */
    default void endOfRun(long endUs, boolean horizonReached) {
    }

    /** Lines skipped as malformed (trace sources with skip-bad-lines); 0 otherwise. */
    default long skippedLines() {
        return 0;
    }

    @Override
    default void close() {
    }
}
