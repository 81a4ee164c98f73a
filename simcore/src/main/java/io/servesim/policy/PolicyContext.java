package io.servesim.policy;

import io.servesim.slo.SloTargets;

/**
 * What policy factories may know about the deployment beyond their own params.
 *
 * @param instances number of instances in the cluster
 * @param slo       per-class SLO targets (deadline-aware priority reads TTFT targets)
 */
public record PolicyContext(int instances, SloTargets slo) {
    public static final PolicyContext DEFAULT = new PolicyContext(1, SloTargets.DEFAULT);
}
