package io.servesim.metrics;

/**
 * One row of a run's replica timeline: how many replicas were in each lifecycle state
 * ({@link io.servesim.cluster.ReplicaState}) from {@code timeUs} until the next row. A timeline
 * ({@link ScalingSummary#timeline}) starts with the initial fleet at time 0, has a row after every
 * change (several changes at one instant make one row) and ends with a row at the end of the run
 * holding the counts at that time; so integrating a count over the rows gives the summary's
 * replica-seconds in that state, and {@link #held} peaks at {@code peak_replicas}. A fixed fleet's
 * timeline is its {@code deployment.instances} ready at time 0 and at the end (one row when the
 * run ends at time 0).
 *
 * @param timeUs       simulated time the counts hold from, microseconds
 * @param provisioning replicas whose node and pod are starting
 * @param loading      replicas loading their weights
 * @param warming      replicas warming up (CUDA graphs)
 * @param ready        replicas receiving requests
 * @param draining     replicas finishing their work after a scale-down
 */
public record ReplicaCounts(long timeUs, int provisioning, int loading, int warming, int ready, int draining) {
    /** Replicas held in any state (paid for). */
    public int held() {
        return provisioning + loading + warming + ready + draining;
    }

    /** These counts from {@code atUs} on. */
    public ReplicaCounts at(long atUs) {
        return new ReplicaCounts(atUs, provisioning, loading, warming, ready, draining);
    }
}
