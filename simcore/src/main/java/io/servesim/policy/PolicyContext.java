package io.servesim.policy;

import io.servesim.slo.SloTargets;

/**
 * What policy factories may know about the deployment beyond their own params.
 *
 * @param instances number of instances in the cluster
 * @param slo       per-class SLO targets (deadline-aware priority reads TTFT targets)
 * @param cpuKvTier whether the instances the policy serves have a CPU KV tier ({@code engine.kv_cpu_blocks > 0}):
 *                  a parameter about that tier is refused without one, as the engine's tier keys are
 */
public record PolicyContext(int instances, SloTargets slo, boolean cpuKvTier) {
    public static final PolicyContext DEFAULT = new PolicyContext(1, SloTargets.DEFAULT);

    /** Instances without a CPU KV tier. */
    public PolicyContext(int instances, SloTargets slo) {
        this(instances, slo, false);
    }

    /** This context for instances with ({@code true}) or without a CPU KV tier. */
    public PolicyContext withCpuKvTier(boolean tier) {
        return new PolicyContext(instances, slo, tier);
    }
}
