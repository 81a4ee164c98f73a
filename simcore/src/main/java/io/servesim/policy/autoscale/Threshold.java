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
 * {@code threshold {signal, scale_up, scale_down, cooldown, step}}: the default {@code ThresholdScaler}
 * (BLIS macro plan, D.6 and PR 11: inference-sim/inference-sim @ 7d4e8bac,
 * {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}). Adds {@code step} replicas (default 1)
 * when the signal (default {@code kv_utilization}) exceeds {@code scale_up} (default 0.8, llm-d WVA's
 * {@code kvCacheThreshold}), removes {@code step} when it is below {@code scale_down} (default 0.3),
 * and does nothing within {@code cooldown} (default 60s) of the last scale action. Hysteresis is the
 * band between the two thresholds ({@code scale_down < scale_up} is required): a signal inside it
 * keeps the fleet as it is.
 */
final class Threshold implements AutoScalePolicy {
    private static final String AT = AutoscaleParams.at("threshold");
    static final Setting<String> SIGNAL = AutoscaleParams.signal("threshold");
    static final Setting<Double> SCALE_UP = Setting.of(AT + "scale_up", AutoscaleParams.LEVEL.above(), 0.8,
            "Add step replicas when the signal exceeds this (llm-d WVA's kvCacheThreshold, 0.8).")
            .flag("--autoscaler-threshold");
    static final Setting<Double> SCALE_DOWN = Setting.of(AT + "scale_down", AutoscaleParams.LEVEL, 0.3,
            "Remove step replicas when the signal is below this; below scale_up (the band between is the hysteresis).");
    static final Setting<Long> COOLDOWN = AutoscaleParams.cooldown("threshold", 60_000_000L);
    static final Setting<Long> STEP = Setting.of(AT + "step", ValueType.integer(1, 100_000).in("replicas", "the most"
            + " replicas a run simulates"), 1L, "Replicas added or removed per action.");
    static final List<Setting<?>> PARAMS = List.of(SIGNAL, SCALE_UP, SCALE_DOWN, COOLDOWN, STEP);

    private final ScaleMetric metric;
    private final double up;
    private final double down;
    private final long cooldownUs;
    private final int step;

    private Threshold(ScaleMetric metric, double up, double down, long cooldownUs, int step) {
        this.metric = metric;
        this.up = up;
        this.down = down;
        this.cooldownUs = cooldownUs;
        this.step = step;
    }

    static AutoScalePolicy create(PolicySpec spec, PolicyContext ctx) {
        ScaleMetric metric = ScaleMetric.of(spec.get(SIGNAL));
        double up = metric.threshold(spec, SCALE_UP);
        double down = metric.threshold(spec, SCALE_DOWN);
        if (!(down < up)) {
            throw new ConfigException(spec.path() + ".params.scale_down", "must be < scale_up (" + up + ": the band between"
                    + " them is the hysteresis), got " + down);
        }
        return new Threshold(metric, up, down, spec.get(COOLDOWN), Math.toIntExact(spec.get(STEP)));
    }

    @Override
    public int desiredReplicas(ScaleSignals s) {
        if (s.sinceLastScaleUs() < cooldownUs) {
            return s.currentReplicas();
        }
        double v = metric.value(s);
        if (v > up) {
            return s.currentReplicas() + step;
        }
        if (v < down) {
            return s.currentReplicas() - step;
        }
        return s.currentReplicas();
    }

    @Override
    public String explain(ScaleSignals s, int desired) {
        if (s.sinceLastScaleUs() < cooldownUs) {
            return "cooldown: " + ScaleMetric.number(s.sinceLastScaleUs() / 1e6) + " s since the last action < "
                    + ScaleMetric.number(cooldownUs / 1e6) + " s";
        }
        double v = metric.value(s);
        String seen = metric.describe(s);
        if (v > up) {
            return seen + " > scale_up " + ScaleMetric.number(up) + ": +" + step;
        }
        if (v < down) {
            return seen + " < scale_down " + ScaleMetric.number(down) + ": -" + step;
        }
        return seen + " within [scale_down " + ScaleMetric.number(down) + ", scale_up " + ScaleMetric.number(up) + "]";
    }
}
