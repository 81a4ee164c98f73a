package io.servesim.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The check that makes a plan's answer the cheapest candidate of the whole space meeting every SLO on the full trace,
 * not just the cheapest finalist: successive halving ranked on shorter traces, where a candidate may look better or
 * worse than it is. Let W be the cheapest candidate found meeting every SLO on the full trace. For each aggregated
 * family, the members cheaper than W meet none of them only if the most replicas among them misses (more replicas never
 * sustain less): that one runs on the full trace; if it meets them, it becomes W, and the family's threshold is bisected
 * on the full trace between its counts known to miss and W. Each P/D or data-parallel candidate cheaper than W runs on
 * its own (no such order holds between pool ratios, nor is one assumed between rank counts). With no W, every family's
 * largest member and every P/D and data-parallel candidate run,
 * which shows that nothing in the space meets the SLOs.
 */
final class CheapestCheck {
    private CheapestCheck() {
    }

    /**
     * The plan's answer among the candidates run on the full trace at {@code rateRps}: of those meeting every SLO, the
     * cheapest per hour, then the one with the fewest GPUs, then the one with the most slack there ({@link Outcome#slack}:
     * of two deployments alike in price, the one further from its SLOs), then the first in the space; null when none
     * meets them. A brute-force search of the whole space picks by the same order.
     */
    static Candidate best(List<Candidate> candidates, Results results, double rateRps, int requests, List<Slo> slos) {
        Candidate best = null;
        for (Candidate c : candidates) {
            Outcome o = results.get(c.index(), rateRps, requests);
            if (o != null && o.feasible(slos) && (best == null || preferred(c, best, results, rateRps, requests, slos))) {
                best = c;
            }
        }
        return best;
    }

    /** Whether {@code c} goes before {@code best} (both met every SLO): cheaper, or alike in price and with more slack. */
    private static boolean preferred(Candidate c, Candidate best, Results results, double rateRps, int requests,
                                     List<Slo> slos) {
        return preference(results, rateRps, requests, slos).compare(c, best) < 0;
    }

    /**
     * The plan's preference between candidates run on the full trace at {@code rateRps}: {@link Candidate#PRICE}, then
     * the most slack there (a candidate without that run last), then the first in the space.
     */
    static Comparator<Candidate> preference(Results results, double rateRps, int requests, List<Slo> slos) {
        return Candidate.PRICE.thenComparing(c -> {
            Outcome o = results.get(c.index(), rateRps, requests);
            return o == null ? Double.POSITIVE_INFINITY : -o.slack(slos);
        }).thenComparingInt(Candidate::index);
    }

    /**
     * The candidates to run next on the full trace: for each family at most one, and the candidates of no family (P/D,
     * data-parallel) no dearer than W
     * (a candidate alike in price to W runs too: it may have more slack).
     */
    static List<Candidate> pending(List<List<Candidate>> families, List<Candidate> familyless, Candidate best,
                                   Results results, double rateRps, int requests, List<Slo> slos) {
        List<Candidate> out = new ArrayList<>();
        for (List<Candidate> members : families) {
            Candidate next = next(members, best, results, rateRps, requests, slos);
            if (next != null) {
                out.add(next);
            }
        }
        for (Candidate c : familyless) {
            if (cheaper(c, best) && results.get(c.index(), rateRps, requests) == null) {
                out.add(c);
            }
        }
        return out;
    }

    /** The family member to run next, or null when no member cheaper than {@code best} can meet every SLO. */
    private static Candidate next(List<Candidate> members, Candidate best, Results results, double rateRps, int requests,
                                  List<Slo> slos) {
        int n = members.size();
        int hi = n + 1;
        for (int i = 1; i <= n; i++) {
            Outcome o = results.get(members.get(i - 1).index(), rateRps, requests);
            if (o != null && o.feasible(slos)) {
                hi = i;
                break;
            }
        }
        int lo = 0;
        for (int i = 1; i < hi; i++) {
            Outcome o = results.get(members.get(i - 1).index(), rateRps, requests);
            if (o != null) {
                lo = i;
            }
        }
        int cheaper = 0; // the most replicas no dearer than best
        for (int i = 1; i <= n; i++) {
            if (cheaper(members.get(i - 1), best)) {
                cheaper = i;
            }
        }
        if (cheaper <= lo || hi - lo <= 1) {
            return null; // every member no dearer than best misses (the one with the most replicas does), or the threshold is known
        }
        if (hi > cheaper + 1) {
            return members.get(cheaper - 1); // one run decides: if it misses, so do the fewer replicas
        }
        return members.get((lo + hi) / 2 - 1); // a member no dearer than best meets them: bisect the threshold below it
    }

    /** Whether {@code c} could be the answer instead of {@code best}: none yet, or {@code c} is no dearer and not it. */
    private static boolean cheaper(Candidate c, Candidate best) {
        return best == null || (Candidate.PRICE.compare(c, best) <= 0 && !c.equals(best));
    }
}
