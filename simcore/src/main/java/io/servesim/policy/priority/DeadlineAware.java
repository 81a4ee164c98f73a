package io.servesim.policy.priority;

import io.servesim.cluster.PriorityPolicy;
import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import io.servesim.slo.SloTargets;
import java.util.List;

/**
 * {@code deadline-aware {default_ttft_ms}}: earliest deadline first, deadline = arrival + the TTFT
 * target of the request's SLO class ({@code slo.classes}); classes without one use
 * {@code default_ttft_ms} (default 10 s). Score = -deadline in seconds.
 */
final class DeadlineAware implements PriorityPolicy {
    static final Setting<Double> DEFAULT_TTFT_MS = Setting.of("policies.priority[deadline-aware].params.default_ttft_ms",
            ValueType.real(0, 86_400_000).above().in("ms", "a TTFT deadline beyond a day is no deadline"), 10_000.0,
            "The TTFT target of a class without one (slo.<class>.ttft_ms).");
    static final List<Setting<?>> PARAMS = List.of(DEFAULT_TTFT_MS);

    private final SloTargets slo;
    private final long fallbackTtftUs;

    private DeadlineAware(SloTargets slo, long fallbackTtftUs) {
        this.slo = slo;
        this.fallbackTtftUs = fallbackTtftUs;
    }

    static PriorityPolicy create(PolicySpec spec, PolicyContext ctx) {
        return new DeadlineAware(ctx.slo(), Math.round(spec.get(DEFAULT_TTFT_MS) * 1000));
    }

    @Override
    public double scoreAt(Request r, long nowUs) {
        return rankKey(r);
    }

    @Override
    public double rankKey(Request r) {
        return -(r.arrivalUs() + slo.ttftTargetUs(r.tags().sloClass(), fallbackTtftUs)) / 1e6;
    }
}
