package io.servesim.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The Pareto frontier of cost per hour against capacity: the candidates no other one beats on both, that is, with no
 * candidate as cheap or cheaper sustaining as much or more (one of the two strictly). Read along it, each step buys the
 * most capacity a dollar per hour more can buy among the candidates whose capacity was measured.
 */
final class Frontier {
    private Frontier() {
    }

    /**
     * The frontier of {@code capacityRps} (candidate to a positive capacity), cheapest first; of candidates equal in cost
     * and capacity, the one {@code preference} puts first stands for them (the recommended one, if it is among them).
     */
    static List<Candidate> of(Map<Candidate, Double> capacityRps, Comparator<Candidate> preference) {
        List<Candidate> sorted = new ArrayList<>(capacityRps.keySet());
        sorted.sort(Comparator.comparingDouble(Candidate::costUsdPerHour)
                .thenComparing(c -> -capacityRps.get(c)).thenComparing(preference));
        List<Candidate> out = new ArrayList<>();
        double most = 0;
        for (Candidate c : sorted) {
            if (capacityRps.get(c) > most) {
                out.add(c);
                most = capacityRps.get(c);
            }
        }
        return out;
    }
}
