package io.servesim.policy.api;

import java.util.List;

/**
 * What an autoscaling policy observes at a scale check: aggregates over the ready replicas as seen now, never
 * individual requests or future arrivals (BLIS macro plan, D.7 "AutoScale Policy Observables":
 * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}).
 *
 * @param nowUs            time of the check, simulated microseconds
 * @param currentReplicas  ready + starting replicas (what the bounds constrain)
 * @param readyReplicas    replicas serving requests
 * @param minReplicas      the lower bound ({@code autoscaling.min})
 * @param maxReplicas      the upper bound ({@code autoscaling.max})
 * @param avgQueueDepth    mean waiting requests per ready replica
 * @param avgKvUtilization mean share of KV blocks in use per ready replica, in [0, 1]
 * @param avgInFlight      mean requests routed and not yet left per ready replica
 * @param requestRatePerS  cluster arrivals per second over the signal window
 * @param sloAttainment    completions meeting their SLO / completions over the window (1 when none completed)
 * @param sinceLastScaleUs time since the last scale-up or scale-down ({@link Long#MAX_VALUE} before the first)
 * @param recentLoad       mean in-flight requests per ready replica at the last checks, oldest first (this one last)
 */
public record ScaleView(long nowUs, int currentReplicas, int readyReplicas, int minReplicas, int maxReplicas,
                        double avgQueueDepth, double avgKvUtilization, double avgInFlight, double requestRatePerS,
                        double sloAttainment, long sinceLastScaleUs, List<Double> recentLoad) {
    public ScaleView {
        recentLoad = List.copyOf(recentLoad);
    }
}
