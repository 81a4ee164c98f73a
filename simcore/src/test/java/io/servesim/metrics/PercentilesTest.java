package io.servesim.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PercentilesTest {
    @Test
    void linearInterpolationBetweenClosestRanks() {
        // x = 10,20,30,40 (n=4). p50: h = 3*0.5 = 1.5 -> 20 + 0.5*10 = 25.
        // p90: h = 2.7 -> 30 + 0.7*10 = 37. p99: h = 2.97 -> 39.7 (NumPy default gives the same).
        Percentiles p = Percentiles.of(new double[] {40, 10, 30, 20});
        assertEquals(25, p.percentile(50), 1e-12);
        assertEquals(37, p.percentile(90), 1e-12);
        assertEquals(39.7, p.percentile(99), 1e-12);
        assertEquals(10, p.percentile(0), 0);
        assertEquals(40, p.percentile(100), 0);
        assertEquals(25, p.mean(), 0);
        assertEquals(true, Double.isNaN(Percentiles.of(new double[0]).percentile(50)));
    }
}
