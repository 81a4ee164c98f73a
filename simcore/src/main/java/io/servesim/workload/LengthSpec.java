package io.servesim.workload;

import java.util.SplittableRandom;

/**
 * A token-length distribution of the simple generator: {@code constant(value)},
 * {@code gaussian(mean, std_dev)} clamped to [min, max], or {@code uniform(min, max)} (inclusive).
 * Samples are rounded half-up to integers and are always >= max(min, 1).
 */
public record LengthSpec(String type, double value, double mean, double stdDev, int min, int max) {
    public static final java.util.List<String> TYPES = java.util.List.of("constant", "gaussian", "uniform");

    public static LengthSpec constant(int value) {
        return new LengthSpec("constant", value, value, 0, 1, Integer.MAX_VALUE);
    }

    public static LengthSpec gaussian(double mean, double stdDev, int min, int max) {
        return new LengthSpec("gaussian", 0, mean, stdDev, min, max);
    }

    public int sample(SplittableRandom rng) {
        double x = switch (type) {
            case "constant" -> value;
            case "gaussian" -> mean + stdDev * gaussian(rng);
            case "uniform" -> min + rng.nextInt(max - min + 1);
            default -> throw new IllegalStateException("unknown length type " + type);
        };
        long rounded = Math.round(x);
        long lo = Math.max(1, min);
        return (int) Math.max(lo, Math.min(max, rounded));
    }

    /** Standard normal by Box-Muller from two uniform draws (always two, so streams stay aligned). */
    static double gaussian(SplittableRandom rng) {
        double u1 = 1.0 - rng.nextDouble();
        double u2 = rng.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }
}
