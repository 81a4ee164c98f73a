package io.servesim.policy.autoscale;

import io.servesim.cluster.AutoScalePolicy;
import io.servesim.cluster.ScaleSignals;
import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.List;

/**
 * {@code queue-depth {queue_threshold, kv_threshold, queue_spare_trigger, kv_spare_trigger, cooldown}}:
 * llm-d's Workload Variant Autoscaler saturation analyzer (llm-d-workload-variant-autoscaler
 * {@code deploy/configmap-saturation-scaling.yaml}, defaults {@code queueLengthThreshold: 5},
 * {@code kvCacheThreshold: 0.80}, {@code queueSpareTrigger: 3}, {@code kvSpareTrigger: 0.1}) on the
 * averages an autoscaler may see ({@code AvgQueueDepth}, {@code AvgUtilization}; BLIS macro plan, D.7:
 * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}):
 * the spare capacity is {@code queue_threshold - mean queue depth} and {@code kv_threshold - mean KV
 * utilization}; one replica more when either spare falls below its trigger; one fewer when spreading
 * the same load over one replica less would still leave both spares at or above their triggers;
 * nothing within {@code cooldown} (default 30s) of the last action.
 */
final class QueueDepth implements AutoScalePolicy {
    private static final String AT = AutoscaleParams.at("queue-depth");
    private static final ValueType.Real QUEUE = ValueType.real(0, 1e6).in("requests per replica", "no replica queues"
            + " 10^6 requests");
    static final Setting<Double> QUEUE_THRESHOLD = Setting.of(AT + "queue_threshold", QUEUE.above(), 5.0,
            "Waiting requests per replica the fleet may carry (WVA's queueLengthThreshold).");
    static final Setting<Double> KV_THRESHOLD = Setting.of(AT + "kv_threshold", AutoscaleParams.KV_SHARE.above(), 0.8,
            "KV utilization the fleet may reach (WVA's kvCacheThreshold).");
    static final Setting<Double> QUEUE_SPARE_TRIGGER = Setting.of(AT + "queue_spare_trigger", QUEUE, 3.0,
            "One replica more when queue_threshold - mean queue depth falls below this (WVA's queueSpareTrigger).");
    static final Setting<Double> KV_SPARE_TRIGGER = Setting.of(AT + "kv_spare_trigger", AutoscaleParams.KV_SHARE, 0.1,
            "One replica more when kv_threshold - mean KV utilization falls below this (WVA's kvSpareTrigger).");
    static final Setting<Long> COOLDOWN = AutoscaleParams.cooldown("queue-depth", 30_000_000L);
    static final List<Setting<?>> PARAMS = List.of(QUEUE_THRESHOLD, KV_THRESHOLD, QUEUE_SPARE_TRIGGER, KV_SPARE_TRIGGER,
            COOLDOWN);

    private final double queueThreshold;
    private final double kvThreshold;
    private final double queueSpare;
    private final double kvSpare;
    private final long cooldownUs;

    private QueueDepth(double queueThreshold, double kvThreshold, double queueSpare, double kvSpare, long cooldownUs) {
        this.queueThreshold = queueThreshold;
        this.kvThreshold = kvThreshold;
        this.queueSpare = queueSpare;
        this.kvSpare = kvSpare;
        this.cooldownUs = cooldownUs;
    }

    static AutoScalePolicy create(PolicySpec spec, PolicyContext ctx) {
        return new QueueDepth(spec.get(QUEUE_THRESHOLD), spec.get(KV_THRESHOLD), spec.get(QUEUE_SPARE_TRIGGER),
                spec.get(KV_SPARE_TRIGGER), spec.get(COOLDOWN));
    }

    @Override
    public int desiredReplicas(ScaleSignals s) {
        int current = s.currentReplicas();
        if (s.sinceLastScaleUs() < cooldownUs) {
            return current;
        }
        if (queueThreshold - s.avgQueueDepth() < queueSpare || kvThreshold - s.avgKvUtilization() < kvSpare) {
            return current + 1;
        }
        int ready = s.readyReplicas();
        if (ready > 1) {
            double spread = (double) ready / (ready - 1);
            if (queueThreshold - s.avgQueueDepth() * spread >= queueSpare
                    && kvThreshold - s.avgKvUtilization() * spread >= kvSpare) {
                return current - 1;
            }
        }
        return current;
    }

    @Override
    public String explain(ScaleSignals s, int desired) {
        if (s.sinceLastScaleUs() < cooldownUs) {
            return "cooldown: " + ScaleMetric.number(s.sinceLastScaleUs() / 1e6) + " s since the last action < "
                    + ScaleMetric.number(cooldownUs / 1e6) + " s";
        }
        String spares = "queue spare " + ScaleMetric.number(queueThreshold - s.avgQueueDepth()) + " (trigger "
                + ScaleMetric.number(queueSpare) + "), kv spare " + ScaleMetric.number(kvThreshold - s.avgKvUtilization())
                + " (trigger " + ScaleMetric.number(kvSpare) + ")";
        if (desired > s.currentReplicas()) {
            return spares + ": a spare below its trigger, +1";
        }
        if (desired < s.currentReplicas()) {
            return spares + ": both spares hold over one replica fewer, -1";
        }
        return spares + ": keep";
    }
}
