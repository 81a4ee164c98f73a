package io.servesim.policy.api;

/**
 * A priority policy as code ({@code policies.priority: {name: code, params: {source: FILE.java}}}): scores each
 * admitted request (higher: more urgent) for priority-aware schedulers ({@code priority-fcfs}, or a scheduling policy
 * reading {@link RequestView#priorityRank()}) and for the priority-inversion count (BLIS {@code sim/priority.go}).
 * The wait queue is a heap keyed on {@link #rankKey}, so the order of two requests must not change with time: an age
 * term {@code w x (now - arrival)} shifts every request alike and keeps it.
 */
public interface PriorityPolicy {
    /** The score of {@code request} at simulated time {@code nowUs} (microseconds). */
    double score(RequestView request, long nowUs);

    /**
     * A time-invariant key ordering requests as {@link #score} does at any common time; by default the score at
     * time 0, which is such a key whenever the score is a request term plus a term of time alone.
     */
    default double rankKey(RequestView request) {
        return score(request, 0);
    }
}
