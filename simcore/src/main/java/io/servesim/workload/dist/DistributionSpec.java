package io.servesim.workload.dist;

import java.util.SplittableRandom;

/**
 * A bound {@code *_distribution:} block: a raw {@link Sampler}, clamped to {@code [min, max]}, then
 * rounded when {@code isInt}.
 *
 * <p>Rounding rule ({@code is_int: true}): the clamped draw is rounded half up
 * ({@code floor(x + 0.5)}) and then clamped again to {@code [ceil(min), floor(max)]}, so results
 * are always integers inside the bounds. A {@code uniform} with {@code is_int} instead draws every
 * integer of {@code [ceil(min), floor(max)]} with equal probability (no half-weight end points).
 * Token counts and turn counts always use {@code is_int}; think times are rounded to whole
 * microseconds; priorities are real-valued unless {@code is_int: true} is given.
 *
 * @param type    distribution type name (for messages)
 * @param sampler raw draws
 * @param min     lower clamp (inclusive)
 * @param max     upper clamp (inclusive)
 * @param isInt   round to integers
 */
public record DistributionSpec(String type, Sampler sampler, double min, double max, boolean isInt) {
    public DistributionSpec {
        if (!(min <= max)) {
            throw new IllegalArgumentException("min " + min + " > max " + max);
        }
        if (isInt && Math.ceil(min) > Math.floor(max)) {
            throw new IllegalArgumentException("no integer in [" + min + ", " + max + "]");
        }
    }

    /** A distribution that always yields {@code value}. */
    public static DistributionSpec constant(double value) {
        return new DistributionSpec("constant", Samplers.constant(value), value, value, value == Math.rint(value));
    }

    /** One clamped (and, if {@code isInt}, rounded) draw. */
    public double sample(SplittableRandom rng) {
        double x = sampler.draw(rng);
        x = x < min ? min : Math.min(x, max);
        if (isInt) {
            x = Math.floor(x + 0.5);
            x = Math.max(Math.ceil(min), Math.min(Math.floor(max), x));
        }
        return x;
    }

    /** A draw as an int (callers bind int-valued distributions with max <= Integer.MAX_VALUE). */
    public int sampleInt(SplittableRandom rng) {
        return (int) sample(rng);
    }

    /** A draw rounded to a long (microseconds). */
    public long sampleLong(SplittableRandom rng) {
        return Math.round(sample(rng));
    }
}
