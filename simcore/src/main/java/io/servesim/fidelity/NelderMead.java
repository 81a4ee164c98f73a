package io.servesim.fidelity;

import java.util.Arrays;
import java.util.Comparator;
import java.util.function.ToDoubleFunction;

/**
 * Derivative-free minimisation by the Nelder-Mead simplex method with the standard coefficients
 * (reflection 1, expansion 2, contraction 1/2, shrink 1/2; Lagarias et al., "Convergence properties
 * of the Nelder-Mead simplex method in low dimensions", SIAM J. Optim. 9(1), 1998). Deterministic:
 * the start simplex is the start point plus {@code step} along each axis.
 */
final class NelderMead {
    /**
     * @param point       best point found
     * @param value       objective there
     * @param evaluations objective evaluations used
     */
    record Result(double[] point, double value, int evaluations) {
    }

    private NelderMead() {
    }

    /**
     * Minimises {@code f} from {@code start}.
     *
     * @param step            initial simplex edge along each axis
     * @param maxEvaluations  evaluation budget
     * @param tolerance       stop when the simplex's values differ by less than this
     */
    static Result minimize(ToDoubleFunction<double[]> f, double[] start, double step, int maxEvaluations, double tolerance) {
        int n = start.length;
        double[][] simplex = new double[n + 1][];
        double[] values = new double[n + 1];
        int evaluations = 0;
        for (int i = 0; i <= n; i++) {
            simplex[i] = start.clone();
            if (i > 0) {
                simplex[i][i - 1] += step;
            }
            values[i] = f.applyAsDouble(simplex[i]);
            evaluations++;
        }
        while (evaluations < maxEvaluations) {
            sort(simplex, values);
            if (values[n] - values[0] < tolerance) {
                break;
            }
            double[] centroid = new double[n];
            for (int i = 0; i < n; i++) {
                for (int d = 0; d < n; d++) {
                    centroid[d] += simplex[i][d] / n;
                }
            }
            double[] reflected = along(centroid, simplex[n], -1);
            double fr = f.applyAsDouble(reflected);
            evaluations++;
            if (fr < values[0]) {
                double[] expanded = along(centroid, simplex[n], -2);
                double fe = f.applyAsDouble(expanded);
                evaluations++;
                replaceWorst(simplex, values, fe < fr ? expanded : reflected, Math.min(fe, fr));
            } else if (fr < values[n - 1]) {
                replaceWorst(simplex, values, reflected, fr);
            } else {
                boolean outside = fr < values[n];
                double[] contracted = outside ? along(centroid, reflected, 0.5) : along(centroid, simplex[n], 0.5);
                double fc = f.applyAsDouble(contracted);
                evaluations++;
                if (fc < (outside ? fr : values[n])) {
                    replaceWorst(simplex, values, contracted, fc);
                } else {
                    for (int i = 1; i <= n; i++) {
                        simplex[i] = along(simplex[0], simplex[i], 0.5);
                        values[i] = f.applyAsDouble(simplex[i]);
                        evaluations++;
                    }
                }
            }
        }
        sort(simplex, values);
        return new Result(simplex[0], values[0], evaluations);
    }

    /** {@code from + t x (to - from)}. */
    private static double[] along(double[] from, double[] to, double t) {
        double[] out = new double[from.length];
        for (int d = 0; d < out.length; d++) {
            out[d] = from[d] + t * (to[d] - from[d]);
        }
        return out;
    }

    private static void replaceWorst(double[][] simplex, double[] values, double[] point, double value) {
        simplex[simplex.length - 1] = point;
        values[values.length - 1] = value;
    }

    /** Orders vertices by value (stable, so ties keep their order and the method stays deterministic). */
    private static void sort(double[][] simplex, double[] values) {
        Integer[] order = new Integer[values.length];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, Comparator.comparingDouble(i -> values[i]));
        double[][] s = simplex.clone();
        double[] v = values.clone();
        for (int i = 0; i < order.length; i++) {
            simplex[i] = s[order[i]];
            values[i] = v[order[i]];
        }
    }
}
