package io.servesim.policy.scheduling;

import io.servesim.engine.Request;
import io.servesim.engine.SchedulingPolicy;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.Comparator;

/**
 * {@code fcfs}: first come, first served, vLLM v1's default policy
 * ({@code vllm/v1/core/sched/request_queue.py}: {@code FCFSRequestQueue}, a deque); the null order
 * keeps the wait queue a plain FIFO. No params.
 */
final class Fcfs implements SchedulingPolicy {
    private Fcfs() {
    }

    static SchedulingPolicy create(PolicySpec spec, PolicyContext ctx) {
        return new Fcfs();
    }

    @Override
    public Comparator<Request> order() {
        return null;
    }
}
