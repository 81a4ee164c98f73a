package io.servesim.policy.autoscale;

import io.servesim.cluster.AutoScalePolicy;
import io.servesim.cluster.ScaleSignals;
import io.servesim.config.ConfigException;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.Set;

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
        spec.requireOnly(Set.of("signal", "scale_up", "scale_down", "cooldown", "step"));
        ScaleMetric metric = ScaleMetric.of(spec.choice("signal", "kv_utilization", ScaleMetric.names()));
        double up = metric.threshold(spec, "scale_up", spec.positive("scale_up", 0.8));
        double down = metric.threshold(spec, "scale_down", spec.nonNegative("scale_down", 0.3));
        if (!(down < up)) {
            throw new ConfigException(spec.path() + ".params.scale_down", "must be < scale_up (" + up + ": the band between"
                    + " them is the hysteresis), got " + down);
        }
        double step = spec.positive("step", 1);
        if (step != Math.rint(step)) {
            throw new ConfigException(spec.path() + ".params.step", "must be a whole number of replicas, got " + step);
        }
        return new Threshold(metric, up, down, spec.durationUs("cooldown", 60_000_000), (int) step);
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
