package io.servesim.policy.autoscale;

import io.servesim.cluster.AutoScalePolicy;
import io.servesim.cluster.ScaleSignals;
import io.servesim.config.ConfigException;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.Set;

/**
 * {@code slo-attainment {target, scale_down_above, cooldown}}: scales on the outcome rather than
 * a load signal (the "event-based (queue depth, SLO)" trigger of BLIS macro plan, D.6:
 * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}):
 * one replica more when the windowed SLO attainment falls below {@code target} (default 0.95), one
 * fewer when it is at least {@code scale_down_above} (default 0.99) and no replica has a queue (mean
 * queue depth 0), nothing within {@code cooldown} (default 60s) of the last action.
 */
final class SloAttainment implements AutoScalePolicy {
    private final double target;
    private final double downAbove;
    private final long cooldownUs;

    private SloAttainment(double target, double downAbove, long cooldownUs) {
        this.target = target;
        this.downAbove = downAbove;
        this.cooldownUs = cooldownUs;
    }

    static AutoScalePolicy create(PolicySpec spec, PolicyContext ctx) {
        spec.requireOnly(Set.of("target", "scale_down_above", "cooldown"));
        double target = spec.positive("target", 0.95);
        double downAbove = spec.positive("scale_down_above", 0.99);
        if (target > 1 || downAbove > 1 || downAbove < target) {
            throw new ConfigException(spec.path() + ".params.scale_down_above", "need 0 < target <= scale_down_above <= 1, got target "
                    + target + ", scale_down_above " + downAbove);
        }
        return new SloAttainment(target, downAbove, spec.durationUs("cooldown", 60_000_000));
    }

    @Override
    public int desiredReplicas(ScaleSignals s) {
        if (s.sinceLastScaleUs() < cooldownUs) {
            return s.currentReplicas();
        }
        if (s.sloAttainment() < target) {
            return s.currentReplicas() + 1;
        }
        if (s.sloAttainment() >= downAbove && s.avgQueueDepth() == 0) {
            return s.currentReplicas() - 1;
        }
        return s.currentReplicas();
    }

    @Override
    public String explain(ScaleSignals s, int desired) {
        if (s.sinceLastScaleUs() < cooldownUs) {
            return "cooldown: " + ScaleMetric.number(s.sinceLastScaleUs() / 1e6) + " s since the last action < "
                    + ScaleMetric.number(cooldownUs / 1e6) + " s";
        }
        String seen = "slo_attainment " + ScaleMetric.number(s.sloAttainment());
        if (s.sloAttainment() < target) {
            return seen + " < target " + ScaleMetric.number(target) + ": +1";
        }
        if (desired < s.currentReplicas()) {
            return seen + " >= scale_down_above " + ScaleMetric.number(downAbove) + " and no queue: -1";
        }
        return seen + " >= target " + ScaleMetric.number(target) + ": keep";
    }
}
