package io.servesim.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fleet's size over the run and what it cost (BLIS macro plan, G.3 {@code RawMetrics} "Scale events
 * and cost", and D.6 "Replica-seconds accumulated; configurable cost-per-replica":
 * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}).
 * A replica is paid for from its scale-up decision (provisioning) until it is gone; a fixed fleet is
 * ready from time 0 to the end.
 * Cost = replica-seconds / 3600 x USD per GPU-hour x GPUs per replica. The {@code autoscaling} section of the run
 * summary JSON; the metric catalog ({@link MetricCatalog}) names and documents each value.
 *
 * @param enabled                    whether replicas came and went
 * @param scaleUps                   replicas added
 * @param scaleDowns                 replicas removed (drained, or cancelled while starting)
 * @param clampedDecisions           checks whose desired count was clamped to [min, max] (or short of free slots)
 * @param oscillations               actions reversing the previous one within the oscillation window
 * @param drainRerouted              requests moved to another replica by drains
 * @param drainRecomputed            requests restarted from their prompt by immediate drains
 * @param replicaSecondsByState      replica-seconds in each lifecycle state (provisioning .. draining)
 * @param costUsd                    cost in US dollars; NaN when the GPU has no price
 * @param timeToReadyMeanS           mean scale-up decision to READY, seconds; NaN when none became ready
 * @param timeToReadyMaxS            longest of them, seconds; NaN when none
 * @param sloAttainmentWhileStarting SLO attainment of requests completing while any replica was starting; NaN when none
 * @param peakReplicas               most replicas held at once (any state)
 * @param meanReplicas               replica-seconds / run seconds
 * @param timeline                   replicas per lifecycle state over the run, in time order ({@link ReplicaCounts});
 *                                   not in the run summary JSON: it is a dataset ({@code scaling/}, {@code --scaling-out})
 */
public record ScalingSummary(boolean enabled, long scaleUps, long scaleDowns, long clampedDecisions, long oscillations,
                             long drainRerouted, long drainRecomputed, Map<String, Double> replicaSecondsByState,
                             double costUsd, double timeToReadyMeanS, double timeToReadyMaxS,
                             double sloAttainmentWhileStarting, int peakReplicas, double meanReplicas,
                             List<ReplicaCounts> timeline) {
    public ScalingSummary {
        replicaSecondsByState = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(replicaSecondsByState));
        timeline = List.copyOf(timeline);
    }

    /** Replica-seconds over all states. */
    public double replicaSeconds() {
        double s = 0;
        for (double v : replicaSecondsByState.values()) {
            s += v;
        }
        return s;
    }

    /** Replica-seconds in {@code state} ({@code ready}, {@code provisioning}, ...). */
    public double replicaSeconds(String state) {
        return replicaSecondsByState.getOrDefault(state, 0.0);
    }
}
