package io.servesim.plan;

import java.util.List;

/**
 * What a search concluded: every candidate's verdict, the recommended one (the cheapest meeting every SLO on the full
 * trace at the target rate, of several alike in price the one sustaining the most; null when none does), the
 * cost/capacity frontier and, when nothing meets the SLOs, why.
 *
 * @param candidates  one verdict per candidate, in the space's order
 * @param recommended the recommended candidate, or null
 * @param frontier    the frontier, cheapest first
 * @param unmet       when nothing is recommended: the objectives no candidate met on the full trace (empty when each was
 *                    met by some candidate, never all at once)
 * @param closest     when nothing is recommended: the candidate that came closest ({@link Outcome#slack}), or null
 */
public record PlanResult(List<Verdict> candidates, Candidate recommended, List<Candidate> frontier, List<String> unmet,
                         Candidate closest) {
    public PlanResult {
        candidates = List.copyOf(candidates);
        frontier = List.copyOf(frontier);
        unmet = List.copyOf(unmet);
    }

    /** The verdict of {@code c}. */
    public Verdict of(Candidate c) {
        return candidates.get(c.index());
    }

    /**
     * One candidate's verdict.
     *
     * @param candidate   the candidate
     * @param status      {@code feasible}, {@code infeasible} (both on the full trace at the target rate),
     *                    {@code screened-out}, {@code pruned} or {@code invalid}
     * @param reason      why, in words
     * @param requests    the longest trace it ran at the target rate (0: none)
     * @param outcome     that run's outcome, or null
     * @param capacityRps its capacity, requests per second, or NaN when not searched
     * @param capped      whether the capacity is the grid's highest rate, every rate up to it meeting the SLOs
     * @param missRps     the lowest rate found missing an SLO (capacity + tolerance), NaN when capped or not searched
     */
    public record Verdict(Candidate candidate, String status, String reason, int requests, Outcome outcome,
                          double capacityRps, boolean capped, double missRps) {
    }
}
