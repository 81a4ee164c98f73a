package io.servesim.cluster;

/**
 * What an {@link AutoScalePolicy} may observe at a scale check: aggregates only, the observable contract
 * for autoscalers (BLIS macro plan, D.7 "AutoScale Policy Observables": inference-sim/inference-sim
 * @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}: deployment size and bounds,
 * average queue depth and utilization, request rate, SLO attainment, time since the last scale action,
 * recent load samples). Never individual requests, per-instance placement or future arrivals. Averages
 * are over READY replicas, as seen now.
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
    /**
     * The signals by name, for decision traces (seconds since the last action NaN before the
     * first; {@code recent_load[k]} oldest first).
     */
    public java.util.Map<String, Double> toMap() {
        java.util.Map<String, Double> m = new java.util.LinkedHashMap<>();
        m.put("current_replicas", (double) currentReplicas);
        m.put("ready_replicas", (double) readyReplicas);
        m.put("min_replicas", (double) minReplicas);
        m.put("max_replicas", (double) maxReplicas);
        m.put("avg_queue_depth", avgQueueDepth);
        m.put("avg_kv_utilization", avgKvUtilization);
        m.put("avg_in_flight", avgInFlight);
        m.put("request_rate_per_s", requestRatePerS);
        m.put("slo_attainment", sloAttainment);
        m.put("since_last_scale_s", sinceLastScaleUs == Long.MAX_VALUE ? Double.NaN : sinceLastScaleUs / 1e6);
        for (int k = 0; k < recentLoad.length; k++) {
            m.put("recent_load[" + k + "]", recentLoad[k]);
        }
        return m;
    }
}
