package io.servesim.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Successive halving (Jamieson and Talwalkar, AISTATS 2016; Li et al., Hyperband, JMLR 2018) of the candidates on
 * traces that grow: rung k runs its candidates at the target rate on {@code screen x eta^k} requests (the last rung on
 * the full trace) and keeps 1 / eta of them (at least {@code keep}) for the next. A rung ranks those meeting every SLO
 * first, cheapest first ({@link Candidate#CHEAPEST}), then the others by how close they came ({@link Outcome#slack}):
 * the question is which deployment is the cheapest to meet them, so a cheap candidate that meets them on a short trace
 * is worth a longer one, an expensive one is not. The last rung's candidates are the finalists.
 */
final class SuccessiveHalving {
    private SuccessiveHalving() {
    }

    /**
     * Where the halving stands.
     *
     * @param rungs    each rung's candidates, from rung 0 to the last one reached
     * @param pending  the candidates of the last rung reached still to run, at {@code budget}
     * @param budget   the trace size of the last rung reached
     */
    record State(List<List<Candidate>> rungs, List<Candidate> pending, int budget) {
        boolean done() {
            return pending.isEmpty();
        }

        List<Candidate> finalists() {
            return rungs.get(rungs.size() - 1);
        }
    }

    /** Replays the halving of {@code pool} (rung 0's candidates, all run at {@code budgets[0]}) over {@code results}. */
    static State of(List<Candidate> pool, Results results, double rateRps, List<Integer> budgets, int eta, int keep,
                    List<Slo> slos) {
        List<List<Candidate>> rungs = new ArrayList<>();
        List<Candidate> rung = pool;
        for (int k = 0; ; k++) {
            rungs.add(rung);
            int budget = budgets.get(k);
            List<Candidate> missing = rung.stream().filter(c -> results.get(c.index(), rateRps, budget) == null).toList();
            if (!missing.isEmpty() || k == budgets.size() - 1) {
                return new State(rungs, missing, budget);
            }
            List<Candidate> ranked = new ArrayList<>(rung);
            ranked.sort(ranking(results, rateRps, budget, slos));
            int kept = Math.min(ranked.size(), Math.max(keep, (ranked.size() + eta - 1) / eta));
            rung = List.copyOf(ranked.subList(0, kept));
        }
    }

    /** Those meeting every SLO first, cheapest first; then the others, the closest first. */
    static Comparator<Candidate> ranking(Results results, double rateRps, int budget, List<Slo> slos) {
        return Comparator.<Candidate>comparingInt(c -> results.get(c.index(), rateRps, budget).feasible(slos) ? 0 : 1)
                .thenComparing((a, b) -> {
                    Outcome oa = results.get(a.index(), rateRps, budget);
                    if (oa.feasible(slos)) {
                        return Candidate.CHEAPEST.compare(a, b);
                    }
                    int bySlack = Double.compare(results.get(b.index(), rateRps, budget).slack(slos), oa.slack(slos));
                    return bySlack != 0 ? bySlack : Candidate.CHEAPEST.compare(a, b);
                });
    }
}
