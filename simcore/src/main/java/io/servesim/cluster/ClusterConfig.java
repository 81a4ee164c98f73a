package io.servesim.cluster;

/**
 * The cluster around the engines ({@code deployment.instances}, {@code cluster:} section).
 *
 * @param instances          identical engine replicas
 * @param admissionLatencyUs time from cluster arrival to the admission decision
 * @param routingLatencyUs   time from admission to the routing decision
 * @param observability      freshness of each instance signal the control plane reads
 */
public record ClusterConfig(int instances, long admissionLatencyUs, long routingLatencyUs, Observability observability) {
    public static final ClusterConfig SINGLE = new ClusterConfig(1, 0, 0, Observability.ALL_IMMEDIATE);

    public ClusterConfig {
        if (instances < 1 || admissionLatencyUs < 0 || routingLatencyUs < 0) {
            throw new IllegalArgumentException("invalid cluster config");
        }
    }

    /** This cluster with {@code n} instances (a P/D deployment: both pools). */
    public ClusterConfig withInstances(int n) {
        return new ClusterConfig(n, admissionLatencyUs, routingLatencyUs, observability);
    }
}
