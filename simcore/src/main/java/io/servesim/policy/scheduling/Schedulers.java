package io.servesim.policy.scheduling;

import io.servesim.engine.SchedulingPolicy;
import io.servesim.policy.Registry;
import io.servesim.policy.code.CodePolicies;

/**
 * Per-instance wait-queue orders, one class each, in the order help and error messages list them
 * ({@link Registry} says how to add one). {@code fcfs} and {@code priority-fcfs} are vLLM v1's two
 * scheduling policies; {@code sjf} and the pathological {@code reverse-priority} follow BLIS's
 * scheduler templates. Ties always fall back to enqueue order, so every order is total and
 * deterministic.
 */
public final class Schedulers {
    public static final Registry<SchedulingPolicy> REGISTRY = new Registry<SchedulingPolicy>("scheduler")
            .register("fcfs", Fcfs::create)
            .register("priority-fcfs", PriorityFcfs::create)
            .register("sjf", Sjf::create)
            .register("reverse-priority", ReversePriority::create)
            .register(CodePolicies.NAME, CodePolicies::scheduling, CodePolicies.SCHEDULING.all());

    private Schedulers() {
    }
}
