package io.servesim.policy.priority;

import io.servesim.cluster.PriorityPolicy;
import io.servesim.config.Setting;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.List;

/**
 * {@code constant {value}}: every request scores {@code value} (default 0): no prioritisation
 * (BLIS {@code sim/priority.go}).
 */
final class Constant implements PriorityPolicy {
    static final Setting<Double> VALUE = Setting.of("policies.priority[constant].params.value", Scores.TYPE, 0.0,
            "The score of every request.");
    static final List<Setting<?>> PARAMS = List.of(VALUE);

    private final double value;

    private Constant(double value) {
        this.value = value;
    }

    static PriorityPolicy create(PolicySpec spec, PolicyContext ctx) {
        return new Constant(spec.get(VALUE));
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
