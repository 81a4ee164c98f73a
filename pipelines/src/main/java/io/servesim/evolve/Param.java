package io.servesim.evolve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.servesim.config.Durations;

/**
 * One numeric parameter of a policy template that the search varies: {@code <kind>.<param>} of the template named in
 * the evolve file's {@code policies:} ({@code routing.cache_affinity}), searched in {@code [min, max]} from
 * {@code start} with initial step {@code sigma}. A duration parameter is searched in seconds and written as whole
 * microseconds; an integer one is rounded to the nearest integer (CMA-ES searches the continuous value, the run sees the
 * rounded one).
 *
 * @param kind  the policy kind ({@code routing})
 * @param key   the template's parameter ({@code cache_affinity})
 * @param type  how a searched value becomes a config value
 * @param min   lowest value searched
 * @param max   highest value searched
 * @param start the first candidate's value
 * @param sigma CMA-ES's initial standard deviation along this parameter
 */
record Param(String kind, String key, Type type, double min, double max, double start, double sigma) {
    /** How a searched number becomes a config value. */
    enum Type { REAL, INTEGER, SECONDS }

    /** {@code routing.cache_affinity}, as the evolve file names it. */
    String name() {
        return kind + "." + key;
    }

    /** {@code routing_cache_affinity}: the parameter's column in {@code generations/}. */
    String column() {
        return (kind + "_" + key).replaceAll("[^A-Za-z0-9_]", "_");
    }

    /** The value a run sees for searched value {@code x} (already within bounds), as a number. */
    double effective(double x) {
        return switch (type) {
            case REAL -> x;
            case INTEGER -> Math.round(x);
            case SECONDS -> Math.round(x * 1e6) / 1e6;
        };
    }

    /** The config value for searched value {@code x}. */
    JsonNode node(double x) {
        return switch (type) {
            case REAL -> DoubleNode.valueOf(x);
            case INTEGER -> LongNode.valueOf(Math.round(x));
            case SECONDS -> TextNode.valueOf(Durations.render(Math.round(x * 1e6)));
        };
    }
}
