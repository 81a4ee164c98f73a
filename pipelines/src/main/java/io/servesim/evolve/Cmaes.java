package io.servesim.evolve;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.analysis.MultivariateFunction;
import org.apache.commons.math3.optim.InitialGuess;
import org.apache.commons.math3.optim.MaxEval;
import org.apache.commons.math3.optim.SimpleBounds;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.commons.math3.optim.nonlinear.scalar.ObjectiveFunction;
import org.apache.commons.math3.optim.nonlinear.scalar.noderiv.CMAESOptimizer;
import org.apache.commons.math3.random.MersenneTwister;

/**
 * The search's candidates, from Apache Commons Math 3.6.1's {@code CMAESOptimizer} unchanged (Hansen's CMA-ES with
 * active covariance update, bounds handled by repair and penalty; Hansen, "The CMA Evolution Strategy: A Tutorial",
 * arXiv:1604.00772). That optimizer has no ask/tell interface: it calls the objective one candidate at a time. A
 * generation here is a whole Beam sweep, so each generation is asked for by replay: the optimizer is run from its
 * seeded start with the objective answering every earlier generation's candidates from the values already measured,
 * and the candidates it asks for next are collected until a whole generation is (then the run is abandoned). This is
 * exact because {@code CMAESOptimizer.doOptimize} draws all of a generation's offspring from the distribution before
 * it reads any of their values (commons-math 3.6.1, {@code CMAESOptimizer.java}, the generation loop: {@code randn1},
 * then {@code fitfun.value} per offspring, then sorting), and everything else it does is a function of the seed and
 * the values; so a search resumed from stored values proposes what the uninterrupted one did. The first "generation"
 * is the start point alone, which the optimizer evaluates before its loop; the optimizer's own stopping rules (a flat
 * fitness history, a collapsed step size) may end the search before {@code generations}.
 */
final class Cmaes {
    private Cmaes() {
    }

    /** Thrown from the objective once the asked-for generation is complete, to leave the optimizer. */
    private static final class Asked extends RuntimeException {
        Asked() {
            super(null, null, false, false);
        }
    }

    /**
     * The candidates of generation {@code measured.size()} (the values of each earlier generation's candidates, in
     * order, higher better), within the parameters' bounds; empty when the optimizer has stopped.
     */
    static List<double[]> next(EvolveSpec spec, List<double[]> measured) {
        List<Param> params = spec.params();
        int n = params.size();
        double[] start = new double[n];
        double[] lower = new double[n];
        double[] upper = new double[n];
        double[] sigma = new double[n];
        for (int i = 0; i < n; i++) {
            Param p = params.get(i);
            start[i] = p.start();
            lower[i] = p.min();
            upper[i] = p.max();
            sigma[i] = p.sigma();
        }
        int lambda = spec.population();
        int wanted = measured.isEmpty() ? 1 : lambda;
        List<double[]> asked = new ArrayList<>();
        int[] calls = {0};
        MultivariateFunction objective = x -> {
            int c = calls[0]++;
            int gen = c == 0 ? 0 : 1 + (c - 1) / lambda;
            int index = c == 0 ? 0 : (c - 1) % lambda;
            if (gen < measured.size()) {
                return measured.get(gen)[index];
            }
            asked.add(x.clone());
            if (asked.size() == wanted) {
                throw new Asked();
            }
            return 0; // never read: the optimizer reads a generation's values only once all of it is drawn
        };
        CMAESOptimizer optimizer = new CMAESOptimizer(spec.generations(), 0, true, 0, 0, new MersenneTwister(spec.seed()),
                false, null);
        try {
            optimizer.optimize(new MaxEval(Integer.MAX_VALUE), new ObjectiveFunction(objective), GoalType.MAXIMIZE,
                    new InitialGuess(start), new SimpleBounds(lower, upper), new CMAESOptimizer.Sigma(sigma),
                    new CMAESOptimizer.PopulationSize(lambda));
        } catch (Asked done) {
            return asked;
        }
        return List.of();
    }
}
