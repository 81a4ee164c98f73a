package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PiecewiseLinearTest {
    // Samples (1, 10), (2, 8), (4, 14): the dip at 2 is raised to the running maximum 10.
    private final PiecewiseLinear curve = new PiecewiseLinear(new double[] {1, 2, 4}, new double[] {10, 8, 14});

    @Test
    void clampsBelowTheFirstSample() {
        assertEquals(10, curve.at(0.5));
        assertEquals(10, curve.at(-3));
    }

    @Test
    void interpolatesLinearlyOverTheNonDecreasingSamples() {
        assertEquals(10, curve.at(2));
        assertEquals(12, curve.at(3)); // 10 + (3 - 2) / (4 - 2) x (14 - 10)
        assertEquals(10, curve.at(1.5)); // between 10 and the raised 10
    }

    @Test
    void extrapolatesAboveTheLastSampleFromTheLastTwo() {
        assertEquals(18, curve.at(6)); // slope (14 - 10) / 2 = 2 per unit: 14 + 2 x 2
    }

    @Test
    void aSingleSampleIsConstant() {
        PiecewiseLinear one = new PiecewiseLinear(new double[] {5}, new double[] {7});
        assertEquals(7, one.at(0));
        assertEquals(7, one.at(100));
    }

    @Test
    void rejectsUnsortedPoints() {
        assertThrows(IllegalArgumentException.class, () -> new PiecewiseLinear(new double[] {2, 1}, new double[] {1, 2}));
        assertThrows(IllegalArgumentException.class, () -> new PiecewiseLinear(new double[] {}, new double[] {}));
    }
}
