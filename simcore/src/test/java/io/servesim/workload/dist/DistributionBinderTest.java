package io.servesim.workload.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.workload.dist.DistributionBinder.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Strict binding of distribution blocks: exact paths and messages. */
class DistributionBinderTest {
    @Test
    void unknownTypeListsTheValidOnes() {
        assertEquals(List.of("d.type: unknown value 'zipf'; valid: constant, uniform, gaussian, exponential, lognormal, "
                + "pareto, weibull, gamma, empirical"), Dists.problems("{type: zipf}", Kind.REAL));
        assertEquals(List.of("d.type: required; valid: constant, uniform, gaussian, exponential, lognormal, pareto, "
                + "weibull, gamma, empirical"), Dists.problems("{params: {mean: 1}}", Kind.REAL));
    }

    @Test
    void requiredAndPositiveParameters() {
        assertEquals(List.of("d.params.sigma: must be > 0, got 0"),
                Dists.problems("{type: lognormal, params: {mean: 800, sigma: 0}}", Kind.REAL));
        assertEquals(List.of("d.params.mean: required for exponential"),
                Dists.problems("{type: exponential, params: {}}", Kind.REAL));
        assertEquals(List.of("d.params: lognormal needs exactly one of mu or mean"),
                Dists.problems("{type: lognormal, params: {mu: 5, mean: 800, sigma: 1}}", Kind.REAL));
        assertEquals(List.of("d.params.std_dev: must be >= 0, got -1"),
                Dists.problems("{type: gaussian, params: {mean: 5, std_dev: -1}}", Kind.REAL));
    }

    @Test
    void unknownParameterListsTheTypesParameters() {
        List<String> p = Dists.problems("{type: gaussian, params: {mean: 5, std_dev: 1, sd: 2}}", Kind.REAL);
        assertEquals(List.of("d.params.sd: unknown key; valid keys here: max, mean, min, std_dev"), p);
    }

    @Test
    void boundsAreChecked() {
        assertEquals(List.of("d.params.min: min 9 > max 3"),
                Dists.problems("{type: gaussian, params: {mean: 10, std_dev: 1, min: 9, max: 3}}", Kind.REAL));
        assertEquals(List.of("d.params.min: must be >= 1 (token counts are integers >= 1), got 0"),
                Dists.problems("{type: gaussian, params: {mean: 10, std_dev: 1, min: 0}}", Kind.TOKENS));
        assertEquals(List.of("d.is_int: must be true here (token counts are integers >= 1)"),
                Dists.problems("{type: exponential, is_int: false, params: {mean: 10}}", Kind.TOKENS));
        assertEquals(List.of("d.params.value: must be in [1, 2147483647] (token counts are integers >= 1), got 0"),
                Dists.problems("{type: constant, params: {value: 0}}", Kind.TOKENS));
        assertEquals(List.of("d.params.min: no integer lies in [min, max] = [1.2, 1.8]"),
                Dists.problems("{type: uniform, is_int: true, params: {min: 1.2, max: 1.8}}", Kind.REAL));
    }

    @Test
    void empiricalProblemsNameTheKeyOrFileLine(@TempDir Path dir) throws Exception {
        assertEquals(List.of("d: empirical needs exactly one of pmf (inline {value: weight}) or file (CSV value,weight)"),
                Dists.problems("{type: empirical}", Kind.REAL));
        assertEquals(List.of("d.pmf.abc: key must be a number (a value of the distribution)"),
                Dists.problems("{type: empirical, pmf: {abc: 1}}", Kind.REAL));
        assertEquals(List.of("d.pmf: weights sum to 0, not 1 (within 1e-6); give probabilities"),
                Dists.problems("{type: empirical, pmf: {5: 0}}", Kind.REAL));
        Files.writeString(dir.resolve("bad.csv"), "value,weight\n1,0.5\n3,x\n");
        var e = org.junit.jupiter.api.Assertions.assertThrows(io.servesim.config.ConfigException.class,
                () -> Dists.bind("{type: empirical, file: bad.csv}", Kind.REAL, dir));
        assertEquals("d.file: " + dir.resolve("bad.csv") + ":3: expected two numbers 'value,weight', got '3,x'", e.getMessage());
        assertEquals(List.of("d.pmf: only for type empirical"),
                Dists.problems("{type: exponential, params: {mean: 3}, pmf: {1: 1}}", Kind.REAL));
    }

    @Test
    void empiricalFollowsTheRulesOfTheOtherTypes(@TempDir Path dir) throws Exception {
        assertEquals(List.of("d.pmf.0: value must be in [1, 2147483647] (token counts are integers >= 1), got 0",
                        "d.pmf.-5: value must be in [1, 2147483647] (token counts are integers >= 1), got -5"),
                Dists.problems("{type: empirical, pmf: {0: 0.25, -5: 0.25, 10: 0.5}}", Kind.TOKENS));
        assertEquals(List.of("d.pmf: weights sum to 4, not 1 (within 1e-6); give probabilities"),
                Dists.problems("{type: empirical, pmf: {10: 1, 20: 3}}", Kind.TOKENS));
        assertEquals(List.of("d.pmf: weights sum to 0.9, not 1 (within 1e-6); give probabilities"),
                Dists.problems("{type: empirical, pmf: {10: 0.4, 20: 0.5}}", Kind.TOKENS));
        Dists.bind("{type: empirical, pmf: {10: 0.3333333, 20: 0.6666667}}", Kind.TOKENS, dir);
        Files.writeString(dir.resolve("lengths.csv"), "value,weight\n10,0.5\n0,0.25\n30,0.5\n");
        var e = org.junit.jupiter.api.Assertions.assertThrows(io.servesim.config.ConfigException.class,
                () -> Dists.bind("{type: empirical, file: lengths.csv}", Kind.TOKENS, dir));
        assertEquals(List.of("d.file: " + dir.resolve("lengths.csv") + ":3: value must be in [1, 2147483647] "
                        + "(token counts are integers >= 1), got 0",
                "d.file: " + dir.resolve("lengths.csv") + ": weights sum to 1.25, not 1 (within 1e-6); give probabilities"),
                e.problems().stream().map(io.servesim.config.ConfigException.Problem::toString).toList());
    }

    @Test
    void weibullShapeInvertsTheCv() {
        // CV(1) = 1 (exponential); the solver inverts CV(k) to machine precision.
        assertEquals(1.0, SpecialFunctions.weibullShapeForCv(1.0), 1e-9);
        for (double cv : new double[] {0.05, 0.5, 2, 5, 15}) {
            assertEquals(cv, SpecialFunctions.weibullCv(SpecialFunctions.weibullShapeForCv(cv)), 1e-9 * cv);
        }
        // Gamma(5) = 24, Gamma(1/2) = sqrt(pi), Gamma(0.1) = 9.513507698668732.
        assertEquals(24.0, SpecialFunctions.gamma(5), 1e-12);
        assertEquals(Math.sqrt(Math.PI), SpecialFunctions.gamma(0.5), 1e-13);
        assertEquals(9.513507698668732, SpecialFunctions.gamma(0.1), 1e-12);
        // ln Gamma(171.5) = 709.1431630309283 (scipy.special.gammaln).
        assertEquals(709.1431630309283, SpecialFunctions.lnGamma(171.5), 1e-9);
    }
}
