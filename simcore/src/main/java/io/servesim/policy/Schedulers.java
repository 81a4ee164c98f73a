package io.servesim.policy;

import io.servesim.engine.Request;
import io.servesim.engine.SchedulingPolicy;
import java.util.Comparator;
import java.util.Set;

/**
 * Per-instance wait-queue orders. {@code fcfs} and {@code priority-fcfs} are vLLM v1's two
 * scheduling policies ({@code vllm/v1/core/sched/request_queue.py}: FCFS deque, priority heap by
 * (priority, arrival)); {@code sjf} (shortest prompt first) and the pathological
 * {@code reverse-priority} (lowest priority first) follow BLIS's scheduler templates.
 * Ties always fall back to enqueue order, so every order is total and deterministic.
 */
public final class Schedulers {
    private static final Comparator<Request> BY_WAIT_ORDER = Comparator.comparingLong(Request::waitOrder);

    public static final Registry<SchedulingPolicy> REGISTRY = new Registry<SchedulingPolicy>("scheduler")
            .register("fcfs", (spec, ctx) -> fixed(spec, null))
            .register("priority-fcfs", (spec, ctx) -> fixed(spec,
                    Comparator.comparingDouble(Request::priorityScore).reversed().thenComparing(BY_WAIT_ORDER)))
            .register("sjf", (spec, ctx) -> fixed(spec,
                    Comparator.comparingInt(Request::inputTokens).thenComparing(BY_WAIT_ORDER)))
            .register("reverse-priority", (spec, ctx) -> fixed(spec,
                    Comparator.comparingDouble(Request::priorityScore).thenComparing(BY_WAIT_ORDER)));

    private Schedulers() {
    }

    private static SchedulingPolicy fixed(PolicySpec spec, Comparator<Request> order) {
        spec.requireOnly(Set.of());
        return () -> order;
    }
}
