package io.servesim.workload.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every sampler's mean and variance over 100,000 draws against the closed forms (see
 * {@link Samplers}). The mean must lie within 5 standard errors (sd / sqrt(n)); the variance within
 * a relative tolerance chosen from the distribution's kurtosis (standard error of s^2 / sigma^2 is
 * about sqrt((kurtosis - 1) / n): e.g. 0.4% for the normal, 2.4% for lognormal sigma 0.9). Every
 * {@link DistributionType} has a case; {@code DistributionContractTest} checks bounds and seeding.
 */
class DistributionMomentsTest {
    private static final int N = 100_000;

    static Stream<Arguments> cases() {
        double g1 = SpecialFunctions.gamma(1 + 1 / 1.5);
        double g2 = SpecialFunctions.gamma(1 + 2 / 1.5);
        double w8 = SpecialFunctions.gamma(1 + 1 / 0.8);
        double w8b = SpecialFunctions.gamma(1 + 2 / 0.8);
        return Stream.of(
                // gaussian(100, 15): mean 100, variance 225.
                Arguments.of("{type: gaussian, params: {mean: 100, std_dev: 15}}", 100.0, 225.0, 0.03),
                // exponential(220): mean 220, variance 220^2.
                Arguments.of("{type: exponential, params: {mean: 220}}", 220.0, 220.0 * 220, 0.05),
                // lognormal(mu 5, sigma 0.5): mean e^(5.125), variance (e^0.25 - 1) e^10.25.
                Arguments.of("{type: lognormal, params: {mu: 5, sigma: 0.5}}", Math.exp(5.125),
                        (Math.exp(0.25) - 1) * Math.exp(10.25), 0.05),
                // lognormal given its mean: E = 800 exactly, variance (e^0.81 - 1) 800^2.
                Arguments.of("{type: lognormal, params: {mean: 800, sigma: 0.9}}", 800.0, (Math.exp(0.81) - 1) * 640_000, 0.12),
                // pareto(alpha 6, xm 100): mean 6*100/5 = 120, variance 100^2 * 6 / (25 * 4) = 600.
                Arguments.of("{type: pareto, params: {alpha: 6, xm: 100}}", 120.0, 600.0, 0.12),
                // uniform[10, 50): mean 30, variance 40^2 / 12.
                Arguments.of("{type: uniform, params: {min: 10, max: 50}}", 30.0, 1600.0 / 12, 0.03),
                // integer uniform on 1..6: mean 3.5, variance (6^2 - 1) / 12 = 35/12.
                Arguments.of("{type: uniform, is_int: true, params: {min: 1, max: 6}}", 3.5, 35.0 / 12, 0.03),
                // weibull(k 1.5, lambda 1000): mean 1000 G(1 + 1/1.5), variance 1000^2 (G(1 + 2/1.5) - G(1 + 1/1.5)^2).
                Arguments.of("{type: weibull, params: {shape: 1.5, scale: 1000}}", 1000 * g1, 1e6 * (g2 - g1 * g1), 0.04),
                // weibull by mean 500, k 0.8: scale 500 / G(1.25).
                Arguments.of("{type: weibull, params: {shape: 0.8, mean: 500}}", 500.0,
                        Math.pow(500 / w8, 2) * (w8b - w8 * w8), 0.15),
                // gamma(k 2.5, theta 40): mean 100, variance 4000.
                Arguments.of("{type: gamma, params: {shape: 2.5, scale: 40}}", 100.0, 4000.0, 0.05),
                // gamma(k 0.5, mean 100): theta 200, variance 0.5 * 200^2 = 20000 (exercises the k < 1 boost).
                Arguments.of("{type: gamma, params: {shape: 0.5, mean: 100}}", 100.0, 20_000.0, 0.08),
                // empirical {100: 0.25, 200: 0.75}: mean 175, variance 0.25 * 75^2 + 0.75 * 25^2 = 1875.
                Arguments.of("{type: empirical, pmf: {100: 0.25, 200: 0.75}}", 175.0, 1875.0, 0.03),
                Arguments.of("{type: constant, params: {value: 7}}", 7.0, 0.0, 0.0));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void meanAndVarianceMatch(String yaml, double mean, double variance, double varianceTolerance) {
        DistributionSpec d = Dists.real(yaml);
        SplittableRandom rng = new SplittableRandom(42);
        double sum = 0;
        double sumSq = 0;
        for (int i = 0; i < N; i++) {
            double x = d.sample(rng);
            sum += x;
            sumSq += x * x;
        }
        double m = sum / N;
        double v = (sumSq - N * m * m) / (N - 1);
        double meanTolerance = 5 * Math.sqrt(variance / N) + 1e-9 * Math.abs(mean);
        assertEquals(mean, m, meanTolerance, yaml + " mean");
        assertEquals(variance, v, varianceTolerance * variance + 1e-9, yaml + " variance");
    }

    @Test
    void everyTypeHasACase() {
        Set<String> covered = cases().map(a -> Dists.real((String) a.get()[0]).type()).collect(Collectors.toSet());
        assertEquals(Set.copyOf(DistributionType.names()), covered);
    }
}
