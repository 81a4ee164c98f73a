package io.servesim.workload.dist;

import java.util.SplittableRandom;

/**
 * The raw samplers behind every distribution type. Each draw uses a fixed number of uniforms
 * except gamma (rejection) and empirical (one); uniforms in (0, 1] are taken as {@code 1 - nextDouble()}
 * so logarithms stay finite.
 *
 * <p>Moments (used by the tests): exponential(mean m): m, m^2; lognormal(mu, s):
 * exp(mu + s^2/2), (exp(s^2) - 1) exp(2 mu + s^2); pareto(alpha, xm): alpha xm / (alpha - 1),
 * xm^2 alpha / ((alpha - 1)^2 (alpha - 2)); weibull(k, lambda): lambda Gamma(1 + 1/k),
 * lambda^2 (Gamma(1 + 2/k) - Gamma(1 + 1/k)^2); gamma(k, theta): k theta, k theta^2.
 */
public final class Samplers {
    private Samplers() {
    }

    /** Always {@code value}. */
    public static Sampler constant(double value) {
        return rng -> value;
    }

    /** Continuous uniform on [min, max). */
    public static Sampler uniform(double min, double max) {
        return rng -> min + (max - min) * rng.nextDouble();
    }

    /** Every integer in [min, max] with equal probability. */
    public static Sampler uniformInteger(long min, long max) {
        return rng -> min + rng.nextLong(max - min + 1);
    }

    /** Normal with the given mean and standard deviation (Box-Muller, two uniforms per draw). */
    public static Sampler gaussian(double mean, double stdDev) {
        return rng -> mean + stdDev * standardNormal(rng);
    }

    /** Exponential with the given mean (inverse CDF). */
    public static Sampler exponential(double mean) {
        return rng -> -mean * Math.log(openUnit(rng));
    }

    /** exp(N(mu, sigma^2)). */
    public static Sampler lognormal(double mu, double sigma) {
        return rng -> Math.exp(mu + sigma * standardNormal(rng));
    }

    /** Pareto type I with shape {@code alpha} and scale (minimum) {@code xm}: xm / U^(1/alpha). */
    public static Sampler pareto(double alpha, double xm) {
        return rng -> xm / Math.pow(openUnit(rng), 1 / alpha);
    }

    /** Weibull with shape {@code k} and scale {@code lambda}: lambda (-ln U)^(1/k). */
    public static Sampler weibull(double k, double lambda) {
        return rng -> lambda * Math.pow(-Math.log(openUnit(rng)), 1 / k);
    }

    /** Gamma with shape {@code k} and scale {@code theta}. */
    public static Sampler gamma(double k, double theta) {
        return rng -> theta * standardGamma(rng, k);
    }

    /** A uniform in (0, 1]. */
    public static double openUnit(SplittableRandom rng) {
        return 1.0 - rng.nextDouble();
    }

    /** Standard normal by Box-Muller from exactly two uniforms. */
    public static double standardNormal(SplittableRandom rng) {
        double u1 = openUnit(rng);
        double u2 = rng.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    /**
     * Gamma(k, 1) by Marsaglia and Tsang, "A simple method for generating gamma variables" (ACM
     * TOMS 26(3), 2000), with the boost Gamma(k) = Gamma(k + 1) U^(1/k) for k < 1.
     */
    public static double standardGamma(SplittableRandom rng, double k) {
        if (k < 1) {
            double boost = Math.pow(openUnit(rng), 1 / k);
            return standardGamma(rng, k + 1) * boost;
        }
        double d = k - 1.0 / 3;
        double c = 1 / Math.sqrt(9 * d);
        while (true) {
            double x;
            double v;
            do {
                x = standardNormal(rng);
                v = 1 + c * x;
            } while (v <= 0);
            v = v * v * v;
            double u = openUnit(rng);
            double x2 = x * x;
            if (u < 1 - 0.0331 * x2 * x2 || Math.log(u) < 0.5 * x2 + d * (1 - v + Math.log(v))) {
                return d * v;
            }
        }
    }
}
