package io.servesim.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * One dimension of a sweep: an ordered list of values, each with a label (what the {@code cells}
 * and {@code requests} datasets store in the axis's column) and the config assignments it makes.
 * A plain axis sets one path ({@code policies.routing.name: kv-router}); a named alternative sets
 * several at once ({@code h100-tp1: {deployment.hardware: H100, deployment.tp: 1}}).
 *
 * @param name   column name of the axis (an Avro/SQL identifier)
 * @param values values in declaration order
 */
public record Axis(String name, List<Value> values) {
    public Axis {
        values = List.copyOf(values);
    }

    /**
     * One value of an axis.
     *
     * @param label       label stored in the axis column
     * @param assignments dotted config path to the value it takes, in declaration order
     */
    public record Value(String label, Map<String, JsonNode> assignments) {
    }
}
