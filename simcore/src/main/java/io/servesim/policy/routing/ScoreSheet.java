package io.servesim.policy.routing;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A scoring router's last decision, kept for decision traces ({@code RoutingPolicy.lastScores} and
 * {@code lastBreakdown}): one score per instance and the named per-instance components it was computed
 * from. The arrays are allocated once and overwritten by every decision.
 */
final class ScoreSheet {
    /** Per instance: the score the router maximized. */
    final double[] scores;
    private final int instances;
    private final Map<String, double[]> components = new LinkedHashMap<>();

    ScoreSheet(int instances) {
        this.instances = instances;
        this.scores = new double[instances];
    }

    /** A new per-instance component named {@code name} (listed in the breakdown in the order added). */
    double[] component(String name) {
        double[] values = new double[instances];
        components.put(name, values);
        return values;
    }

    /** The components by name. */
    Map<String, double[]> components() {
        return components;
    }
}
