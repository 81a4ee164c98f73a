package io.servesim.workload.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Clamping and is_int rounding rules (see {@link DistributionSpec}). */
class DistributionClampTest {
    private static final int N = 100_000;

    @Test
    void gaussianIsClampedWithMassAtTheBounds() {
        // N(100, 50) clamped to [80, 120]: P(x <= 80) = P(z <= -0.4) = 0.344578, same at 120.
        DistributionSpec d = Dists.real("{type: gaussian, params: {mean: 100, std_dev: 50, min: 80, max: 120}}");
        SplittableRandom rng = new SplittableRandom(1);
        int low = 0;
        int high = 0;
        for (int i = 0; i < N; i++) {
            double x = d.sample(rng);
            assertTrue(x >= 80 && x <= 120, "out of bounds: " + x);
            low += x == 80 ? 1 : 0;
            high += x == 120 ? 1 : 0;
        }
        // Standard error sqrt(0.3446 * 0.6554 / 1e5) = 0.0015; allow 5 of them.
        assertEquals(0.344578, (double) low / N, 0.0075);
        assertEquals(0.344578, (double) high / N, 0.0075);
    }

    @Test
    void heavyTailsAreCappedAtMax() {
        DistributionSpec d = Dists.real("{type: pareto, params: {alpha: 1.1, xm: 10, max: 500}}");
        SplittableRandom rng = new SplittableRandom(2);
        for (int i = 0; i < N; i++) {
            double x = d.sample(rng);
            assertTrue(x >= 10 && x <= 500, "out of bounds: " + x);
        }
    }

    @Test
    void isIntRoundsHalfUpInsideIntegerBounds() {
        // lognormal clamped to [1.2, 3.7], rounded: values can only be 2 or 3 (1.2 would round to 1 < ceil(1.2)).
        DistributionSpec d = Dists.real("{type: lognormal, is_int: true, params: {mu: 0.5, sigma: 1, min: 1.2, max: 3.7}}");
        SplittableRandom rng = new SplittableRandom(3);
        boolean saw2 = false;
        boolean saw3 = false;
        for (int i = 0; i < 10_000; i++) {
            double x = d.sample(rng);
            assertTrue(x == 2 || x == 3, "unexpected " + x);
            saw2 |= x == 2;
            saw3 |= x == 3;
        }
        assertTrue(saw2 && saw3);
        assertEquals(3.0, new DistributionSpec("t", Samplers.constant(2.5), 0, 10, true).sample(rng), "2.5 rounds half up");
        assertEquals(-2.0, new DistributionSpec("t", Samplers.constant(-2.5), -10, 10, true).sample(rng), "-2.5 rounds half up");
    }

    @Test
    void integerUniformIsEquiprobableIncludingEnds() {
        // uniform is_int on [1, 6]: each face 1/6; standard error sqrt(1/6 * 5/6 / 1e5) = 0.00118.
        DistributionSpec d = Dists.real("{type: uniform, is_int: true, params: {min: 1, max: 6}}");
        SplittableRandom rng = new SplittableRandom(4);
        int[] counts = new int[7];
        for (int i = 0; i < N; i++) {
            counts[(int) d.sample(rng)]++;
        }
        assertEquals(0, counts[0]);
        for (int face = 1; face <= 6; face++) {
            assertEquals(1.0 / 6, (double) counts[face] / N, 0.006, "face " + face);
        }
    }

    @Test
    void tokenLengthsAreIntegersOfAtLeastOne() {
        // Token distributions default to is_int and min 1: N(2, 5) has most mass below 1.
        DistributionSpec d = Dists.bind("{type: gaussian, params: {mean: 2, std_dev: 5}}", DistributionBinder.Kind.TOKENS,
                java.nio.file.Path.of("."));
        SplittableRandom rng = new SplittableRandom(5);
        for (int i = 0; i < 10_000; i++) {
            int x = d.sampleInt(rng);
            assertTrue(x >= 1, "got " + x);
        }
    }

    @Test
    void empiricalFromCsvFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Files.writeString(dir.resolve("lengths.csv"), "value,weight\n10,0.25\n20,0.25\n\n30,0.5\n");
        DistributionSpec d = Dists.bind("{type: empirical, file: lengths.csv}", DistributionBinder.Kind.TOKENS, dir);
        SplittableRandom rng = new SplittableRandom(6);
        double sum = 0;
        for (int i = 0; i < N; i++) {
            double x = d.sample(rng);
            assertTrue(x == 10 || x == 20 || x == 30);
            sum += x;
        }
        // mean = 0.25 * 10 + 0.25 * 20 + 0.5 * 30 = 22.5; sd = sqrt(68.75) = 8.29, se = 0.026.
        assertEquals(22.5, sum / N, 0.15);
    }
}
