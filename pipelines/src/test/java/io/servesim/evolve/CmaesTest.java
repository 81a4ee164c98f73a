package io.servesim.evolve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * CMA-ES asked a generation at a time by replay: the start point first; each later generation population-sized and
 * within the bounds; asking again with the same values gives the same candidates (what a resumed search relies on);
 * and on a smooth objective the search climbs (the best of the last generation beats the start).
 */
class CmaesTest {
    private static EvolveSpec spec(int generations) {
        List<Param> params = List.of(new Param("routing", "a", Param.Type.REAL, 0, 4, 1, 1),
                new Param("routing", "b", Param.Type.REAL, 0, 4, 1, 1));
        return new EvolveSpec("t", null, Path.of("."), "", null, java.util.Map.of(), params, 6, generations, 5, null, null,
                java.util.Map.of());
    }

    /** A smooth objective peaking (at 0) at a = 3, b = 0.5. */
    private static double objective(double[] x) {
        return -((x[0] - 3) * (x[0] - 3) + (x[1] - 0.5) * (x[1] - 0.5));
    }

    @Test
    void replaysDeterministicallyWithinBoundsAndClimbs() {
        EvolveSpec spec = spec(15);
        List<double[]> values = new ArrayList<>();
        List<List<double[]>> asked = new ArrayList<>();
        for (List<double[]> xs = Cmaes.next(spec, values); !xs.isEmpty(); xs = Cmaes.next(spec, values)) {
            assertEquals(values.isEmpty() ? 1 : 6, xs.size());
            double[] v = new double[xs.size()];
            for (int i = 0; i < xs.size(); i++) {
                assertTrue(xs.get(i)[0] >= 0 && xs.get(i)[0] <= 4 && xs.get(i)[1] >= 0 && xs.get(i)[1] <= 4);
                v[i] = objective(xs.get(i));
            }
            asked.add(xs);
            values.add(v);
        }
        assertArrayEquals(new double[] {1, 1}, asked.get(0).get(0));
        assertEquals(16, asked.size()); // the start point and 15 generations
        List<double[]> again = Cmaes.next(spec, values.subList(0, 7));
        for (int i = 0; i < again.size(); i++) {
            assertArrayEquals(asked.get(7).get(i), again.get(i));
        }
        double last = Double.NEGATIVE_INFINITY;
        for (double v : values.get(values.size() - 1)) {
            last = Math.max(last, v);
        }
        // the start (1, 1) scores -(4 + 0.25) = -4.25; CMA-ES closes on the peak well within 0.1 of it
        assertTrue(last > -0.1, "best of the last generation " + last);
    }
}
