package io.servesim.policy.autoscale;

import io.servesim.cluster.AutoScalePolicy;
import io.servesim.cluster.ScaleSignals;
import io.servesim.config.ConfigException;
import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.List;

/**
 * {@code slo-attainment {target, scale_down_above, cooldown}}: scales on the outcome rather than
 * a load signal (the "event-based (queue depth, SLO)" trigger of BLIS macro plan, D.6:
 * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}):
 * one replica more when the windowed SLO attainment falls below {@code target} (default 0.95), one
 * fewer when it is at least {@code scale_down_above} (default 0.99) and no replica has a queue (mean
 * queue depth 0), nothing within {@code cooldown} (default 60s) of the last action.
 */
final class SloAttainment implements AutoScalePolicy {
    private static final String AT = AutoscaleParams.at("slo-attainment");
    private static final ValueType.Real SHARE = ValueType.real(0, 1).above().in("", "a share of the requests meeting"
            + " their SLO");
    static final Setting<Double> TARGET = Setting.of(AT + "target", SHARE, 0.95,
            "One replica more when the windowed SLO attainment falls below this.");
    static final Setting<Double> SCALE_DOWN_ABOVE = Setting.of(AT + "scale_down_above", SHARE, 0.99,
            "One replica fewer when the attainment is at least this (>= target) and no replica has a queue.");
    static final Setting<Long> COOLDOWN = AutoscaleParams.cooldown("slo-attainment", 60_000_000L);
    static final List<Setting<?>> PARAMS = List.of(TARGET, SCALE_DOWN_ABOVE, COOLDOWN);

    private final double target;
    private final double downAbove;
    private final long cooldownUs;

    private SloAttainment(double target, double downAbove, long cooldownUs) {
        this.target = target;
        this.downAbove = downAbove;
        this.cooldownUs = cooldownUs;
    }

    static AutoScalePolicy create(PolicySpec spec, PolicyContext ctx) {
        double target = spec.get(TARGET);
        double downAbove = spec.get(SCALE_DOWN_ABOVE);
        if (downAbove < target) {
            throw new ConfigException(spec.path() + ".params.scale_down_above", "need 0 < target <= scale_down_above <= 1, got target "
                    + target + ", scale_down_above " + downAbove);
        }
        return new SloAttainment(target, downAbove, spec.get(COOLDOWN));
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
