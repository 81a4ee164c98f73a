package io.servesim.cluster;

import io.servesim.engine.Request;

/**
 * Decides at the cluster's front door whether a request enters (BLIS {@code sim/admission.go}).
 * Instantiated once per run; state changes only from its inputs and the simulated clock.
 */
public interface AdmissionPolicy {
    AdmissionDecision decide(Request r, long nowUs);

    /** An admitted request left the cluster (completed or dropped); quota policies release it. */
    default void onLeft(Request r, long nowUs) {
    }
}
