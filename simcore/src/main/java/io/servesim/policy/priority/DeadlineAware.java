package io.servesim.policy.priority;

import io.servesim.cluster.PriorityPolicy;
import io.servesim.config.ConfigException;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import io.servesim.slo.SloTargets;
import java.util.Set;

/**
 * {@code deadline-aware {default_ttft_ms}}: earliest deadline first, deadline = arrival + the TTFT
 * target of the request's SLO class ({@code slo.classes}); classes without one use
 * {@code default_ttft_ms} (default 10 s). Score = -deadline in seconds.
 */
final class DeadlineAware implements PriorityPolicy {
    private final SloTargets slo;
    private final long fallbackTtftUs;

    private DeadlineAware(SloTargets slo, long fallbackTtftUs) {
        this.slo = slo;
        this.fallbackTtftUs = fallbackTtftUs;
    }

    static PriorityPolicy create(PolicySpec spec, PolicyContext ctx) {
        spec.requireOnly(Set.of("default_ttft_ms"));
        double dfltMs = spec.number("default_ttft_ms", 10_000);
        if (!(dfltMs > 0)) {
            throw new ConfigException(spec.path() + ".params.default_ttft_ms", "must be > 0");
        }
        return new DeadlineAware(ctx.slo(), Math.round(dfltMs * 1000));
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
