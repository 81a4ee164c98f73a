package io.servesim.workload.dist;

import java.util.SplittableRandom;

/**
 * A continuous random variable: one raw draw per call, before any clamping or rounding (which
 * {@link DistributionSpec} applies). Implementations are immutable; all state is in the stream.
 */
@FunctionalInterface
public interface Sampler {
    /** One draw from {@code rng}. */
    double draw(SplittableRandom rng);
}
