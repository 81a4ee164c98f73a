package io.servesim.policy.autoscale;

import io.servesim.cluster.AutoScalePolicy;
import io.servesim.cluster.ScaleSignals;
import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.List;

/**
 * {@code target-utilization {signal, target, tolerance, scale_up_window, scale_down_window}}: the
 * Kubernetes HorizontalPodAutoscaler algorithm (kubernetes.io "Horizontal Pod Autoscaling",
 * algorithm details; {@code pkg/controller/podautoscaler/horizontal.go}):
 * {@code desired = ceil(readyReplicas x metric / target)} with the per-replica metric averaged over
 * ready replicas; no change while {@code |metric / target - 1| <= tolerance} (default 0.1, HPA's
 * {@code --horizontal-pod-autoscaler-tolerance}). Stabilization as HPA's
 * {@code stabilizeRecommendationWithBehaviors}: the recommendations of the last
 * {@code scale_up_window} (default 0s) bound a scale-up by their minimum, those of the last
 * {@code scale_down_window} (default 300s, HPA's default) bound a scale-down by their maximum.
 * Defaults: signal {@code kv_utilization}, target 0.6.
 */
final class TargetUtilization implements AutoScalePolicy {
    private static final String AT = AutoscaleParams.at("target-utilization");
    /** HPA's stabilization windows are at most an hour ({@code behavior.*.stabilizationWindowSeconds <= 3600}). */
    private static final ValueType.Duration WINDOW = ValueType.duration(0, 3_600_000_000L)
            .because("HPA's stabilization windows are at most an hour (stabilizationWindowSeconds <= 3600)");
    static final Setting<String> SIGNAL = AutoscaleParams.signal("target-utilization");
    static final Setting<Double> TARGET = Setting.of(AT + "target", AutoscaleParams.LEVEL.above(), 0.6,
            "The per-replica signal the fleet is sized for (HPA's target average value).");
    static final Setting<Double> TOLERANCE = Setting.of(AT + "tolerance", ValueType.real(0, 1).in("", "a share of the"
            + " target: at 1 an idle fleet is within it and never scales down"), 0.1,
            "No change while |signal / target - 1| is within it (HPA's --horizontal-pod-autoscaler-tolerance).");
    static final Setting<Long> SCALE_UP_WINDOW = Setting.of(AT + "scale_up_window", WINDOW, 0L,
            "A scale-up is bounded by the smallest recommendation within it (HPA's scaleUp stabilization window).");
    static final Setting<Long> SCALE_DOWN_WINDOW = Setting.of(AT + "scale_down_window", WINDOW, 300_000_000L,
            "A scale-down is bounded by the largest recommendation within it (HPA's scaleDown stabilization window).");
    static final List<Setting<?>> PARAMS = List.of(SIGNAL, TARGET, TOLERANCE, SCALE_UP_WINDOW, SCALE_DOWN_WINDOW);

    private final ScaleMetric metric;
    private final double target;
    private final double tolerance;
    private final long upWindowUs;
    private final long downWindowUs;
    private long[] timesUs = new long[64];
    private int[] recommendations = new int[64];
    private int head;
    private int size;
    private int lastRecommendation;
    private int lastUpBound;
    private int lastDownBound;

    private TargetUtilization(ScaleMetric metric, double target, double tolerance, long upWindowUs, long downWindowUs) {
        this.metric = metric;
        this.target = target;
        this.tolerance = tolerance;
        this.upWindowUs = upWindowUs;
        this.downWindowUs = downWindowUs;
    }

    static AutoScalePolicy create(PolicySpec spec, PolicyContext ctx) {
        ScaleMetric metric = ScaleMetric.of(spec.get(SIGNAL));
        return new TargetUtilization(metric, metric.threshold(spec, TARGET), spec.get(TOLERANCE), spec.get(SCALE_UP_WINDOW),
                spec.get(SCALE_DOWN_WINDOW));
    }

    @Override
    public int desiredReplicas(ScaleSignals s) {
        double ratio = metric.value(s) / target;
        int current = s.currentReplicas();
        int recommendation = Math.abs(ratio - 1) <= tolerance ? current : (int) Math.ceil(ratio * s.readyReplicas());
        record(s.nowUs(), recommendation);
        int upBound = recommendation;
        int downBound = recommendation;
        long now = s.nowUs();
        for (int k = 0; k < size; k++) {
            int i = (head + k) % timesUs.length;
            long age = now - timesUs[i];
            if (age < upWindowUs) {
                upBound = Math.min(upBound, recommendations[i]);
            }
            if (age < downWindowUs) {
                downBound = Math.max(downBound, recommendations[i]);
            }
        }
        lastRecommendation = recommendation;
        lastUpBound = upBound;
        lastDownBound = downBound;
        int out = current;
        if (out < upBound) {
            out = upBound;
        }
        if (out > downBound) {
            out = downBound;
        }
        return out;
    }

    @Override
    public String explain(ScaleSignals s, int desired) {
        double ratio = metric.value(s) / target;
        String rule = Math.abs(ratio - 1) <= tolerance
                ? metric.describe(s) + " within tolerance " + ScaleMetric.number(tolerance) + " of target "
                        + ScaleMetric.number(target) + ": keep " + s.currentReplicas()
                : "ceil(ready " + s.readyReplicas() + " x " + metric.describe(s) + " / target " + ScaleMetric.number(target)
                        + ") = " + lastRecommendation;
        return rule + "; stabilized (min over scale_up_window " + lastUpBound + ", max over scale_down_window "
                + lastDownBound + ") -> " + desired;
    }

    /** Keeps this check's recommendation; drops those older than both windows. */
    private void record(long nowUs, int recommendation) {
        long keepUs = Math.max(upWindowUs, downWindowUs);
        while (size > 0 && nowUs - timesUs[head] >= keepUs) {
            head = (head + 1) % timesUs.length;
            size--;
        }
        if (size == timesUs.length) {
            long[] t = new long[size * 2];
            int[] r = new int[size * 2];
            for (int k = 0; k < size; k++) {
                t[k] = timesUs[(head + k) % size];
                r[k] = recommendations[(head + k) % size];
            }
            timesUs = t;
            recommendations = r;
            head = 0;
        }
        int tail = (head + size) % timesUs.length;
        timesUs[tail] = nowUs;
        recommendations[tail] = recommendation;
        size++;
    }
}
