package io.servesim.engine;

import java.util.Comparator;

/**
 * Orders an instance's wait queue (vLLM v1 {@code SchedulingPolicy}: FCFS or PRIORITY). A
 * {@code null} comparator means plain FIFO (no heap). Preempted requests always go back to the
 * front, ahead of this order, as vLLM's {@code prepend_request} does.
 */
public interface SchedulingPolicy {
    /** Order of waiting requests, or {@code null} for FIFO by enqueue time. */
    Comparator<Request> order();
}
