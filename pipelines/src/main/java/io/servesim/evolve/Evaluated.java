package io.servesim.evolve;

/**
 * A candidate of the search as measured on the training split.
 *
 * @param generation its generation (0: the start point)
 * @param index      its place in the generation
 * @param label      {@code g03-c05}
 * @param x          its searched values, within bounds (what CMA-ES proposed)
 * @param reason     why it did not run (its config refused, or the same config as an earlier candidate of its
 *                   generation: then it carries that one's score), or null
 * @param score      its runs on the training split (null when it did not run)
 */
record Evaluated(int generation, int index, String label, double[] x, String reason, EvolveRounds.Score score) {
    /**
     * The value CMA-ES maximises: the mean training fitness, or -1 for a candidate that cannot run, below any run's
     * fitness (which is at least 0), so the search moves away from it (Hansen's tutorial, arXiv:1604.00772, B.3:
     * an infeasible solution ranks below every feasible one).
     */
    double value() {
        return score == null ? -1 : score.fitness();
    }

    /** {@code g03-c05}. */
    static String label(int generation, int index) {
        return String.format("g%02d-c%02d", generation, index);
    }
}
