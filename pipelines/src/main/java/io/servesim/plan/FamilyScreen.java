package io.servesim.plan;

import java.util.List;

/**
 * Bisection of a family's replica counts ({@link Candidate#family()}) on the screen trace at the target rate: as more
 * replicas of the same GPU, TP and engine never sustain less on a fixed trace, the counts that meet every SLO are the
 * ones from some threshold up, and about log2(n) runs find it instead of n. The members above the threshold's cost more
 * and are not the family's cheapest; those below the last count that missed miss too. Replayed from the results like
 * {@link CapacitySearch}.
 */
final class FamilyScreen {
    private FamilyScreen() {
    }

    /**
     * Where a family's bisection stands.
     *
     * @param members the family's candidates, fewest replicas first
     * @param lo      the 1-based position of the most replicas known to miss (0: none)
     * @param hi      the 1-based position of the fewest known to meet (members + 1: none)
     * @param pending the candidate to run next, or -1 when done
     */
    record Verdict(List<Candidate> members, int lo, int hi, int pending) {
        boolean done() {
            return pending < 0;
        }

        /** The family's entry into successive halving: its cheapest member meeting every SLO, else its largest. */
        Candidate contender() {
            return members.get(Math.min(hi, members.size()) - 1);
        }

        /** The member at 1-based {@code position}. */
        Candidate at(int position) {
            return members.get(position - 1);
        }
    }

    /** The bisection of {@code members} (fewest replicas first) over {@code results} at {@code rateRps}, {@code requests}. */
    static Verdict of(List<Candidate> members, Results results, double rateRps, int requests, List<Slo> slos) {
        int lo = 0;
        int hi = members.size() + 1;
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2;
            Outcome o = results.get(members.get(mid - 1).index(), rateRps, requests);
            if (o == null) {
                return new Verdict(members, lo, hi, members.get(mid - 1).index());
            }
            if (o.feasible(slos)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return new Verdict(members, lo, hi, -1);
    }
}
