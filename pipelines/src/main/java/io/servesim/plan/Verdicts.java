package io.servesim.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Each candidate's verdict in words ({@link PlanResult.Verdict}), and what to say when no candidate meets every SLO. */
final class Verdicts {
    private Verdicts() {
    }

    /**
     * The verdict of {@code c}: on the full trace at the target rate if it ran there; else on the longest trace it ran
     * (screened out); else why it never ran (invalid, or pruned by its family's bisection).
     */
    static PlanResult.Verdict of(Candidate c, PlanSpec spec, Map<Integer, String> invalid, List<FamilyScreen.Verdict> screens,
                                 Results results, CapacitySearch.State capacity, CapacitySearch search) {
        double cap = Double.NaN;
        boolean capped = false;
        double miss = Double.NaN;
        if (capacity != null && capacity.done()) {
            cap = search.capacityRps(capacity);
            capped = CapacitySearch.capped(capacity);
            miss = search.missRps(capacity);
        }
        if (invalid.containsKey(c.index())) {
            return new PlanResult.Verdict(c, "invalid", invalid.get(c.index()), 0, null, cap, capped, miss);
        }
        if (spec.capacityOnly()) {
            return new PlanResult.Verdict(c, "measured", "capacity search of the config", 0, null, cap, capped, miss);
        }
        List<Integer> budgets = spec.search().budgets();
        for (int k = budgets.size() - 1; k >= 0; k--) {
            int b = budgets.get(k);
            Outcome o = results.get(c.index(), spec.targetRps(), b);
            if (o == null) {
                continue;
            }
            boolean meets = o.feasible(spec.slos());
            String status;
            String reason;
            if (k == budgets.size() - 1) {
                status = meets ? "feasible" : "infeasible";
                reason = meets ? "meets every SLO on the " + b + "-request trace" : "misses " + String.join(", ",
                        o.missed(spec.slos())) + " on the " + b + "-request trace";
            } else {
                status = "screened-out";
                reason = meets ? "meets every SLO on the " + b + "-request trace, but successive halving kept cheaper"
                        + " candidates" : "misses " + String.join(", ", o.missed(spec.slos())) + " on the " + b
                        + "-request trace";
            }
            return new PlanResult.Verdict(c, status, reason, b, o, cap, capped, miss);
        }
        return new PlanResult.Verdict(c, "pruned", pruned(c, screens, results, spec), 0, null, cap, capped, miss);
    }

    /** Why a family member never ran: its family's bisection placed it above a count that met, or below one that missed. */
    private static String pruned(Candidate c, List<FamilyScreen.Verdict> screens, Results results, PlanSpec spec) {
        int screen = spec.search().budgets().get(0);
        for (FamilyScreen.Verdict v : screens) {
            int position = v.members().indexOf(c) + 1;
            if (position == 0 || !v.done()) {
                continue;
            }
            if (position > v.hi()) {
                return "more replicas than " + v.at(v.hi()).id() + ", which meets every SLO on the " + screen
                        + "-request trace (same GPUs and engine, more of them: it costs more)";
            }
            if (position < v.lo()) {
                Outcome o = results.get(v.at(v.lo()).index(), spec.targetRps(), screen);
                return "fewer replicas than " + v.at(v.lo()).id() + ", which misses " + String.join(", ", o.missed(spec.slos()))
                        + " on the " + screen + "-request trace (fewer replicas never sustain more)";
            }
        }
        return "not run";
    }

    /** The candidate that came closest to meeting every SLO on the full trace ({@link Outcome#slack}), or null. */
    static Candidate closest(List<Candidate> candidates, Results results, double rateRps, int requests, List<Slo> slos) {
        Candidate best = null;
        double most = -1;
        for (Candidate c : candidates) {
            Outcome o = results.get(c.index(), rateRps, requests);
            if (o != null && o.slack(slos) > most) {
                best = c;
                most = o.slack(slos);
            }
        }
        return best;
    }

    /** The objectives (SLOs, and serving every request) that no candidate met on the full trace. */
    static List<String> unmetByAll(List<Candidate> candidates, Results results, double rateRps, int requests, List<Slo> slos) {
        List<Outcome> full = new ArrayList<>();
        for (Candidate c : candidates) {
            Outcome o = results.get(c.index(), rateRps, requests);
            if (o != null) {
                full.add(o);
            }
        }
        List<String> out = new ArrayList<>();
        if (full.stream().noneMatch(Outcome::served)) {
            out.add(Outcome.SERVED);
        }
        for (Slo s : slos) {
            if (full.stream().noneMatch(o -> o.failure() == null && s.met(o.value(s.metric())))) {
                out.add(s.toString());
            }
        }
        return out;
    }
}
