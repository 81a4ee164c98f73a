package io.servesim.metrics;

import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/**
 * Cluster-level aggregates of a run (the {@code cluster} section of the run summary JSON; {@link MetricCatalog} names and
 * documents each).
 *
 * @param instances            instances; under autoscaling the replica slots (ids) that ever held a replica
 * @param requestsPerInstance  requests per instance id, each counted once at the instance it was last routed to; under
 *                             P/D (ids: the prefill pool's, then the decode pool's) a remote request counts once at its
 *                             prefill instance and once at its decode instance, a local one at its decode instance
 * @param loadImbalanceCv      coefficient of variation (population std / mean) of requestsPerInstance; under P/D the mean
 *                             of the two pools' own CVs (a drain's re-route moves it; {@code drain_rerouted} counts those
 *                             moves)
 * @param admissionDelays      admission DELAY decisions
 * @param sloMet               completed requests meeting their class's SLO targets
 * @param sloAttainment        sloMet / injected
 * @param goodputRps           sloMet per second of simulated time
 * @param jainFairness         Jain's index over tenants of per-tenant SLO attainment (1 = equal)
 * @param priorityInversions   pairs (h, l) at one instance: h arrived first and deserves higher priority (SLO class
 *                             importance, then workload priority) yet was scheduled later
 * @param headOfLineBlocks     steps where the wait-queue head lacked KV blocks while the next request would have fit
 * @param bySloClass           per SLO class
 * @param byTenant             per tenant
 */
public record ClusterSummary(int instances, long[] requestsPerInstance, double loadImbalanceCv, long admissionDelays,
                             long sloMet, double sloAttainment, double goodputRps, double jainFairness,
                             long priorityInversions, long headOfLineBlocks,
                             Map<String, GroupSummary> bySloClass, Map<String, GroupSummary> byTenant) {

    /** Value equality, the routed counts included (a record compares arrays by identity). */
    @Override
    public boolean equals(Object o) {
        return o instanceof ClusterSummary c && instances == c.instances
                && Arrays.equals(requestsPerInstance, c.requestsPerInstance)
                && Double.compare(loadImbalanceCv, c.loadImbalanceCv) == 0 && admissionDelays == c.admissionDelays
                && sloMet == c.sloMet && Double.compare(sloAttainment, c.sloAttainment) == 0
                && Double.compare(goodputRps, c.goodputRps) == 0 && Double.compare(jainFairness, c.jainFairness) == 0
                && priorityInversions == c.priorityInversions && headOfLineBlocks == c.headOfLineBlocks
                && bySloClass.equals(c.bySloClass) && byTenant.equals(c.byTenant);
    }

    @Override
    public int hashCode() {
        return 31 * Objects.hash(instances, loadImbalanceCv, admissionDelays, sloMet, sloAttainment, goodputRps, jainFairness,
                priorityInversions, headOfLineBlocks, bySloClass, byTenant) + Arrays.hashCode(requestsPerInstance);
    }
}
