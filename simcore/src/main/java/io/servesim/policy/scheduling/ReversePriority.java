package io.servesim.policy.scheduling;

import io.servesim.engine.Request;
import io.servesim.engine.SchedulingPolicy;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.Comparator;

/**
 * {@code reverse-priority}: lowest priority score first, then enqueue order; pathological, after
 * BLIS's scheduler templates. No params.
 */
final class ReversePriority implements SchedulingPolicy {
    private static final Comparator<Request> ORDER =
            Comparator.comparingDouble(Request::priorityScore).thenComparingLong(Request::waitOrder);

    private ReversePriority() {
    }

    static SchedulingPolicy create(PolicySpec spec, PolicyContext ctx) {
        return new ReversePriority();
    }

    @Override
    public Comparator<Request> order() {
        return ORDER;
    }
}
