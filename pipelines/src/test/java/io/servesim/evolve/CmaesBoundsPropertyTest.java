package io.servesim.evolve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * Whatever the bounds, step, population, seed and fitness values (noise included), every candidate CMA-ES proposes
 * lies within the bounds, each generation has the population's size, and asking twice with the same values gives the
 * same candidates.
 */
class CmaesBoundsPropertyTest {
    @Property(tries = 40)
    void candidatesStayInBoundsAndReplayExactly(@ForAll @DoubleRange(min = -100, max = 100) double lo,
                                                @ForAll @DoubleRange(min = 0.01, max = 50) double width,
                                                @ForAll @DoubleRange(min = 0.05, max = 1) double sigmaShare,
                                                @ForAll @IntRange(min = 2, max = 12) int population,
                                                @ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
        double hi = lo + width;
        // at most hi - lo as the optimizer computes it: lo + width - lo may round below width
        double sigma = (hi - lo) * sigmaShare;
        List<Param> params = List.of(new Param("routing", "a", Param.Type.REAL, lo, hi, lo + width / 2, sigma),
                new Param("routing", "b", Param.Type.REAL, lo, hi, lo, sigma));
        EvolveSpec spec = new EvolveSpec("p", null, Path.of("."), "", null, Map.of(), params, population, 5, seed, null,
                null, Map.of());
        Random noise = new Random(seed);
        List<double[]> values = new ArrayList<>();
        for (List<double[]> xs = Cmaes.next(spec, values); !xs.isEmpty(); xs = Cmaes.next(spec, values)) {
            assertEquals(values.isEmpty() ? 1 : population, xs.size());
            double[] v = new double[xs.size()];
            for (int i = 0; i < xs.size(); i++) {
                for (double x : xs.get(i)) {
                    assertTrue(x >= lo && x <= hi, x + " outside [" + lo + ", " + hi + "]");
                }
                v[i] = noise.nextDouble();
            }
            List<double[]> again = Cmaes.next(spec, values);
            for (int i = 0; i < xs.size(); i++) {
                assertTrue(java.util.Arrays.equals(xs.get(i), again.get(i)));
            }
            values.add(v);
        }
        assertTrue(values.size() <= 6, "the start point and at most 5 generations");
    }
}
