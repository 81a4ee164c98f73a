package io.servesim.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * How a plan searches ({@code search:} of a plan file): the traces' sizes, successive halving's rate of elimination and
 * the capacity bisection's grid.
 *
 * @param screenRequests  requests of the first, shortest trace (the family bisection and rung 0)
 * @param confirmRequests requests of the full trace: every verdict that a candidate meets its SLOs, and every capacity,
 *                        is on it
 * @param eta             successive halving keeps 1 / eta of its candidates at each rung, whose trace is eta times longer
 * @param keep            at least this many candidates reach the full trace (fewer only if the space has fewer)
 * @param toleranceRps    the capacity grid's step: a capacity meets every SLO and the rate one step higher does not
 * @param maxRateRps      the highest rate a capacity search tries; a candidate that meets every SLO there is reported
 *                        as sustaining at least it
 * @param probesPerRound  rates a capacity search tries per round (1: bisection; k: the bracket cut into k + 1 parts); the
 *                        answer on the grid does not depend on it when the SLO metrics grow with the rate
 */
public record SearchSettings(int screenRequests, int confirmRequests, int eta, int keep, double toleranceRps,
                             double maxRateRps, int probesPerRound) {
    /**
     * The trace sizes of successive halving's rungs: {@code screenRequests} x eta^k, below {@code confirmRequests},
     * then {@code confirmRequests}. One rung, the full trace, when the screen is not shorter.
     */
    public List<Integer> budgets() {
        List<Integer> out = new ArrayList<>();
        long b = screenRequests;
        while (b < confirmRequests) {
            out.add((int) b);
            b *= eta;
        }
        out.add(confirmRequests);
        return out;
    }
}
