package io.servesim.cluster;

/**
 * What an {@link AutoScalePolicy} may observe at a scale check: aggregates only, the plan's
 * observable contract for autoscalers (D.7: deployment size and bounds, average queue depth and
 * utilization, request rate, SLO attainment, time since the last scale action, recent load
 * samples). Never individual requests, per-instance placement or future arrivals. Averages are
 * over READY replicas, as seen now.
 *
 * @param nowUs            time of the check
 * @param currentReplicas  ready + starting replicas (what the bounds constrain)
 * @param readyReplicas    replicas serving requests
 * @param minReplicas      lower bound
 * @param maxReplicas      upper bound
 * @param avgQueueDepth    mean waiting requests per ready replica
 * @param avgKvUtilization mean share of KV blocks in use per ready replica, in [0, 1]
 * @param avgInFlight      mean requests routed and not yet left per ready replica
 * @param requestRatePerS  cluster arrivals per second over the signal window
 * @param sloAttainment    completions meeting their SLO / completions, over the window (1 when none completed)
 * @param sinceLastScaleUs time since the last scale-up or scale-down ({@link Long#MAX_VALUE} before the first)
 * @param recentLoad       mean in-flight requests per ready replica at the last checks, oldest first (this one last)
 */
public record ScaleSignals(long nowUs, int currentReplicas, int readyReplicas, int minReplicas, int maxReplicas,
                           double avgQueueDepth, double avgKvUtilization, double avgInFlight, double requestRatePerS,
                           double sloAttainment, long sinceLastScaleUs, double[] recentLoad) {
}
