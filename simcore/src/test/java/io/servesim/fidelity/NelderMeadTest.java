package io.servesim.fidelity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NelderMeadTest {
    @Test
    void findsTheMinimumOfAShiftedQuadratic() {
        // (x - 1)^2 + 10 (y + 2)^2 + (z - 3)^2: minimum 0 at (1, -2, 3).
        NelderMead.Result r = NelderMead.minimize(
                p -> sq(p[0] - 1) + 10 * sq(p[1] + 2) + sq(p[2] - 3), new double[] {0, 0, 0}, 0.5, 2000, 1e-14);
        assertArrayEquals(new double[] {1, -2, 3}, r.point(), 1e-4);
        assertEquals(0, r.value(), 1e-9);
    }

    @Test
    void findsTheRosenbrockValley() {
        // 100 (y - x^2)^2 + (1 - x)^2: minimum 0 at (1, 1), from the classic start (-1.2, 1).
        NelderMead.Result r = NelderMead.minimize(p -> 100 * sq(p[1] - p[0] * p[0]) + sq(1 - p[0]),
                new double[] {-1.2, 1}, 0.5, 5000, 1e-16);
        assertArrayEquals(new double[] {1, 1}, r.point(), 1e-3);
    }

    @Test
    void respectsTheEvaluationBudget() {
        NelderMead.Result r = NelderMead.minimize(p -> sq(p[0]) + sq(p[1]), new double[] {5, 5}, 1, 20, 0);
        // The budget is checked before each step; one step uses at most n + 2 = 4 evaluations (reflect, contract,
        // shrink n), so at most 3 past the budget.
        assertTrue(r.evaluations() <= 20 + 3, "evaluations: " + r.evaluations());
    }

    private static double sq(double x) {
        return x * x;
    }
}
