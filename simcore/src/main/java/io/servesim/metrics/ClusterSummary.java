package io.servesim.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Cluster-level aggregates of a run.
 *
 * @param instances            instances; under autoscaling the replica slots (ids) that ever held a replica
 * @param requestsPerInstance  requests per instance id, each counted once at the instance it was last routed to; under
 *                             P/D (ids: the prefill pool's, then the decode pool's) a remote request counts once at its
 *                             prefill instance and once at its decode instance, a local one at its decode instance
 * @param loadImbalanceCv      CV of requestsPerInstance; under P/D the mean of the two pools' own CVs
 *                             (a drain's re-route moves it; {@code autoscaling.rerouted} counts those moves)
 * @param loadImbalanceCv      coefficient of variation (population std / mean) of requests per instance
 * @param delayed              admission DELAY decisions
 * @param sloMet               completed requests meeting their class's SLO targets
 * @param sloAttainment        sloMet / injected
 * @param goodputRps           sloMet per second of simulated time
 * @param jainFairness         Jain's index over tenants of per-tenant SLO attainment (1 = equal)
 * @param priorityInversions   pairs (h, l) at one instance: h arrived first and deserves higher priority (SLO class
 *                             importance, then workload priority) yet was scheduled later
 * @param headOfLineBlocks     steps where the wait-queue head lacked KV blocks while the next request would have fit
 * @param fitness              weighted fitness (NaN when no weights were given)
 * @param bySloClass           per SLO class
 * @param byTenant             per tenant
 */
public record ClusterSummary(int instances, long[] requestsPerInstance, double loadImbalanceCv, long delayed,
                             long sloMet, double sloAttainment, double goodputRps, double jainFairness,
                             long priorityInversions, long headOfLineBlocks, double fitness,
                             Map<String, GroupSummary> bySloClass, Map<String, GroupSummary> byTenant) {

    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("instances", instances);
        List<Long> counts = new ArrayList<>();
        for (long c : requestsPerInstance) {
            counts.add(c);
        }
        m.put("requests_per_instance", counts);
        m.put("load_imbalance_cv", loadImbalanceCv);
        m.put("delayed", delayed);
        m.put("slo_met", sloMet);
        m.put("slo_attainment", sloAttainment);
        m.put("goodput_rps", goodputRps);
        m.put("jain_fairness", jainFairness);
        m.put("priority_inversions", priorityInversions);
        m.put("head_of_line_blocks", headOfLineBlocks);
        m.put("fitness", fitness);
        Map<String, Object> classes = new LinkedHashMap<>();
        bySloClass.forEach((k, v) -> classes.put(k, v.toMap()));
        m.put("by_slo_class", classes);
        Map<String, Object> tenants = new LinkedHashMap<>();
        byTenant.forEach((k, v) -> tenants.put(k, v.toMap()));
        m.put("by_tenant", tenants);
        return m;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClusterSummary c && toMap().equals(c.toMap());
    }

    @Override
    public int hashCode() {
        return toMap().hashCode();
    }
}
