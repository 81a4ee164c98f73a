package io.servesim.policy;

import io.servesim.slo.SloTargets;
import java.nio.file.Path;

/**
 * What policy factories may know about the deployment beyond their own params.
 *
 * @param instances number of instances in the cluster
 * @param slo       per-class SLO targets (deadline-aware priority reads TTFT targets)
 * @param cpuKvTier whether the instances the policy serves have a CPU KV tier ({@code engine.kv_cpu_blocks > 0}):
 *                  a parameter about that tier is refused without one, as the engine's tier keys are
 * @param baseDir   the directory of the file that names the policy: a relative path among its params (a code
 *                  policy's {@code source}) resolves against it; the working directory when no file does
 */
public record PolicyContext(int instances, SloTargets slo, boolean cpuKvTier, Path baseDir) {
    public static final PolicyContext DEFAULT = new PolicyContext(1, SloTargets.DEFAULT);

    /** Instances without a CPU KV tier, named from no file. */
    public PolicyContext(int instances, SloTargets slo) {
        this(instances, slo, false, Path.of(""));
    }

    /** This context for instances with ({@code true}) or without a CPU KV tier. */
    public PolicyContext withCpuKvTier(boolean tier) {
        return new PolicyContext(instances, slo, tier, baseDir);
    }
}
