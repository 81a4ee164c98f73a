package io.servesim.policy.priority;

import io.servesim.cluster.PriorityPolicy;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.Set;

/**
 * {@code constant {value}}: every request scores {@code value} (default 0): no prioritisation
 * (BLIS {@code sim/priority.go}).
 */
final class Constant implements PriorityPolicy {
    private final double value;

    private Constant(double value) {
        this.value = value;
    }

    static PriorityPolicy create(PolicySpec spec, PolicyContext ctx) {
        spec.requireOnly(Set.of("value"));
        return new Constant(spec.number("value", 0));
    }

    @Override
    public double scoreAt(Request r, long nowUs) {
        return value;
    }

    @Override
    public double rankKey(Request r) {
        return value;
    }
}
