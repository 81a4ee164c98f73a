package io.servesim.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A plan's search, as a function of the results so far: {@link #next} gives the probes of the next round (none when the
 * search is over), {@link #conclude} what the results say. Nothing is kept between calls, so an interrupted plan that is
 * resumed with the rounds it had finished asks for exactly the rounds it would have run, and the same plan and seed give
 * the same rounds on any runner. The stages, each starting when the one before it is done:
 * <ol>
 *   <li>{@link FamilyScreen}: each family of aggregated replica counts is bisected on the screen trace at the target
 *       rate; every P/D and data-parallel candidate runs on it once.</li>
 *   <li>{@link SuccessiveHalving} from the families' contenders and the P/D and data-parallel candidates to the
 *       finalists, on traces
 *       growing to the full one.</li>
 *   <li>{@link CheapestCheck} (no cheaper candidate meets every SLO on the full trace) and, at the same time,
 *       {@link CapacitySearch} of every finalist and of every candidate found meeting every SLO on the full trace.</li>
 * </ol>
 * A capacity search of one config ({@link PlanSpec#capacityOnly()}) is the last stage alone, from rate 0.
 */
public final class PlanSearch {
    private final PlanSpec spec;
    private final Map<Integer, String> invalid;
    private final List<List<Candidate>> families = new ArrayList<>();
    private final List<Candidate> familyless = new ArrayList<>();
    private final List<Candidate> valid = new ArrayList<>();

    /** The search of {@code spec}, whose candidates in {@code invalid} (index to why) cannot run and are left out. */
    public PlanSearch(PlanSpec spec, Map<Integer, String> invalid) {
        this.spec = spec;
        this.invalid = Map.copyOf(invalid);
        Map<String, List<Candidate>> byFamily = new LinkedHashMap<>();
        for (Candidate c : spec.candidates()) {
            if (invalid.containsKey(c.index())) {
                continue;
            }
            valid.add(c);
            if (c.family() == null) {
                familyless.add(c);
            } else {
                byFamily.computeIfAbsent(c.family(), f -> new ArrayList<>()).add(c);
            }
        }
        for (List<Candidate> members : byFamily.values()) {
            members.sort(Comparator.comparingInt(c -> c.fleet().instances()));
            families.add(List.copyOf(members));
        }
    }

    /** Where the search stands over some results. */
    private record Progress(List<FamilyScreen.Verdict> screens, SuccessiveHalving.State halving, Candidate best,
                            Map<Candidate, CapacitySearch.State> capacities, List<Probe> pending) {
    }

    /** The probes of the next round, in candidate order; empty when the search is over. */
    public List<Probe> next(Results results) {
        return progress(results).pending();
    }

    /** The candidates that cannot run, by index, and why. */
    public Map<Integer, String> invalid() {
        return invalid;
    }

    private Progress progress(Results results) {
        List<Probe> pending = new ArrayList<>();
        Map<Candidate, CapacitySearch.State> capacities = new LinkedHashMap<>();
        List<Integer> budgets = spec.search().budgets();
        int full = budgets.get(budgets.size() - 1);
        if (spec.capacityOnly()) {
            Candidate c = spec.candidates().get(0);
            CapacitySearch.State s = capacity(c, null).state(results);
            capacities.put(c, s);
            s.pending().forEach(rate -> pending.add(new Probe(c.index(), rate, full, Stage.CAPACITY)));
            return new Progress(List.of(), null, null, capacities, pending);
        }
        double target = spec.targetRps();
        int screen = budgets.get(0);
        Stage rung0 = budgets.size() == 1 ? Stage.CONFIRM : Stage.SCREEN;
        List<FamilyScreen.Verdict> screens = new ArrayList<>();
        for (List<Candidate> members : families) {
            FamilyScreen.Verdict v = FamilyScreen.of(members, results, target, screen, spec.slos());
            screens.add(v);
            if (!v.done()) {
                pending.add(new Probe(v.pending(), target, screen, rung0));
            }
        }
        for (Candidate c : familyless) {
            if (results.get(c.index(), target, screen) == null) {
                pending.add(new Probe(c.index(), target, screen, rung0));
            }
        }
        if (!pending.isEmpty()) {
            return new Progress(screens, null, null, capacities, ordered(pending));
        }
        List<Candidate> pool = new ArrayList<>(screens.stream().map(FamilyScreen.Verdict::contender).toList());
        pool.addAll(familyless);
        pool.sort(Comparator.comparingInt(Candidate::index));
        SuccessiveHalving.State halving = SuccessiveHalving.of(pool, results, target, budgets, spec.search().eta(),
                spec.search().keep(), spec.slos());
        if (!halving.done()) {
            Stage stage = halving.budget() == full ? Stage.CONFIRM : Stage.SCREEN;
            halving.pending().forEach(c -> pending.add(new Probe(c.index(), target, halving.budget(), stage)));
            return new Progress(screens, halving, null, capacities, ordered(pending));
        }
        Candidate best = CheapestCheck.best(valid, results, target, full, spec.slos());
        CheapestCheck.pending(families, familyless, best, results, target, full, spec.slos())
                .forEach(c -> pending.add(new Probe(c.index(), target, full, Stage.VERIFY)));
        for (Candidate c : measured(halving, results, full)) {
            CapacitySearch.State s = capacity(c, results.get(c.index(), target, full).feasible(spec.slos())).state(results);
            capacities.put(c, s);
            s.pending().forEach(rate -> pending.add(new Probe(c.index(), rate, full, Stage.CAPACITY)));
        }
        return new Progress(screens, halving, best, capacities, ordered(pending));
    }

    /** The candidates whose capacity is searched: the finalists and every one meeting every SLO on the full trace. */
    private List<Candidate> measured(SuccessiveHalving.State halving, Results results, int full) {
        Set<Candidate> out = new LinkedHashSet<>(halving.finalists());
        for (Candidate c : valid) {
            Outcome o = results.get(c.index(), spec.targetRps(), full);
            if (o != null && o.feasible(spec.slos())) {
                out.add(c);
            }
        }
        return out.stream().sorted(Comparator.comparingInt(Candidate::index)).toList();
    }

    private CapacitySearch capacity(Candidate c, Boolean targetMeets) {
        List<Integer> budgets = spec.search().budgets();
        return new CapacitySearch(c.index(), spec.grid(), budgets.get(budgets.size() - 1), spec.slos(),
                spec.search().probesPerRound(), spec.capacityOnly() ? spec.startRps() : Double.NaN, targetMeets);
    }

    /**
     * The cheapest candidate meeting every SLO on the full trace ({@link CheapestCheck#best}); of those alike in price
     * ({@link Candidate#PRICE}), the one sustaining the highest rate (every one has its capacity measured: each met the
     * SLOs on the full trace), then the one with the most slack at the target, then the first in the space.
     */
    private Candidate recommended(Results results, int full, Map<Candidate, Double> capacities) {
        Candidate cheapest = CheapestCheck.best(valid, results, spec.targetRps(), full, spec.slos());
        if (cheapest == null) {
            return null;
        }
        Comparator<Candidate> preference = CheapestCheck.preference(results, spec.targetRps(), full, spec.slos());
        return valid.stream().filter(c -> Candidate.PRICE.compare(c, cheapest) == 0)
                .filter(c -> results.get(c.index(), spec.targetRps(), full) != null
                        && results.get(c.index(), spec.targetRps(), full).feasible(spec.slos()))
                .min(Comparator.<Candidate>comparingDouble(c -> -capacities.getOrDefault(c, 0.0)).thenComparing(preference))
                .orElse(cheapest);
    }

    /** {@code probes} without repeats (the first asker's stage kept), by candidate, rate and trace. */
    private static List<Probe> ordered(List<Probe> probes) {
        Map<Probe.Key, Probe> unique = new TreeMap<>(Comparator.comparingInt(Probe.Key::candidate)
                .thenComparingDouble(Probe.Key::rateRps).thenComparingInt(Probe.Key::requests));
        probes.forEach(p -> unique.putIfAbsent(p.key(), p));
        return List.copyOf(unique.values());
    }

    /** What {@code results} conclude (call it when {@link #next} is empty). */
    public PlanResult conclude(Results results) {
        Progress p = progress(results);
        List<Integer> budgets = spec.search().budgets();
        int full = budgets.get(budgets.size() - 1);
        Map<Candidate, Double> capacities = new LinkedHashMap<>();
        p.capacities().forEach((c, s) -> {
            CapacitySearch.State st = s;
            if (st.done()) {
                double cap = capacity(c, null).capacityRps(st);
                if (cap > 0) {
                    capacities.put(c, cap);
                }
            }
        });
        List<PlanResult.Verdict> verdicts = new ArrayList<>();
        for (Candidate c : spec.candidates()) {
            verdicts.add(Verdicts.of(c, spec, invalid, p.screens(), results, p.capacities().get(c), capacity(c, null)));
        }
        Candidate best = spec.capacityOnly() ? null : recommended(results, full, capacities);
        List<String> unmet = new ArrayList<>();
        Candidate closest = null;
        if (best == null && !spec.capacityOnly()) {
            closest = Verdicts.closest(valid, results, spec.targetRps(), full, spec.slos());
            unmet = Verdicts.unmetByAll(valid, results, spec.targetRps(), full, spec.slos());
        }
        Comparator<Candidate> preference = spec.capacityOnly() ? Candidate.CHEAPEST
                : CheapestCheck.preference(results, spec.targetRps(), full, spec.slos());
        return new PlanResult(verdicts, best, Frontier.of(capacities, preference), unmet, closest);
    }
}
