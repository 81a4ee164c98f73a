package io.servesim.policy.api;

/**
 * A scheduling policy as code ({@code policies.scheduler: {name: code, params: {source: FILE.java}}}): orders each
 * instance's wait queue (vLLM v1's {@code SchedulingPolicy}: FCFS or PRIORITY). Requests it ranks equal are served
 * in the order they joined the queue; preempted requests always go back to the front, as vLLM's
 * {@code prepend_request} does. Called for every comparison of the queue's heap.
 */
public interface SchedulingPolicy {
    /**
     * Negative when {@code a} is served before {@code b}, positive when after, 0 when they rank equal; a total order
     * (consistent and transitive), as {@link java.util.Comparator#compare} requires.
     */
    int compare(RequestView a, RequestView b);
}
