package io.servesim.cluster;

import io.servesim.engine.Request;

/**
 * Assigns each request a priority score (higher = more urgent), used by priority-aware
 * schedulers and by anomaly detection. Scores may grow with age, but every template here ranks
 * requests in an order that does not change with time (an age term {@code w x (now - arrival)} is
 * the same shift for all requests), so the wait queue can be a heap keyed on {@link #rankKey}.
 */
public interface PriorityPolicy {
    /** Score at simulated time {@code nowUs}. */
    double scoreAt(Request r, long nowUs);

    /** A time-invariant key ordering requests exactly as {@link #scoreAt} does at any common time. */
    double rankKey(Request r);
}
