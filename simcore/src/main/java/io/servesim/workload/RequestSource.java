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
     * Called when a request of this source leaves its instance (completed or dropped), at the
     * client-visible completion time. Closed-loop workloads (conversations, agent sessions) use
     * {@code inject} to add follow-up requests arriving at or after {@code nowUs}; requests given
     * to {@code inject} bypass {@link #next()}'s ordering.
     */
    default void onLeft(Request r, long nowUs, java.util.function.Consumer<Request> inject) {
    }

    /** Lines skipped as malformed (trace sources with skip-bad-lines); 0 otherwise. */
    default long skippedLines() {
        return 0;
    }

    @Override
    default void close() {
    }
}
