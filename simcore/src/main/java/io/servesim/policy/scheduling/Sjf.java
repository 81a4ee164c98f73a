package io.servesim.policy.scheduling;

import io.servesim.engine.Request;
import io.servesim.engine.SchedulingPolicy;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.Comparator;

/** {@code sjf}: shortest prompt first, then enqueue order (BLIS's scheduler templates). No params. */
final class Sjf implements SchedulingPolicy {
    private static final Comparator<Request> ORDER =
            Comparator.comparingInt(Request::inputTokens).thenComparingLong(Request::waitOrder);

    private Sjf() {
    }

    static SchedulingPolicy create(PolicySpec spec, PolicyContext ctx) {
        return new Sjf();
    }

    @Override
    public Comparator<Request> order() {
        return ORDER;
    }
}
