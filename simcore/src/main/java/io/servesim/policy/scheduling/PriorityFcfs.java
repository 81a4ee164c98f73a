package io.servesim.policy.scheduling;

import io.servesim.engine.Request;
import io.servesim.engine.SchedulingPolicy;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.Comparator;

/**
 * {@code priority-fcfs}: highest priority score first, then enqueue order, vLLM v1's PRIORITY policy
 * ({@code vllm/v1/core/sched/request_queue.py}: {@code PriorityRequestQueue}, a heap by
 * (priority, arrival)). No params.
 */
final class PriorityFcfs implements SchedulingPolicy {
    private static final Comparator<Request> ORDER =
            Comparator.comparingDouble(Request::priorityScore).reversed().thenComparingLong(Request::waitOrder);

    private PriorityFcfs() {
    }

    static SchedulingPolicy create(PolicySpec spec, PolicyContext ctx) {
        return new PriorityFcfs();
    }

    @Override
    public Comparator<Request> order() {
        return ORDER;
    }
}
