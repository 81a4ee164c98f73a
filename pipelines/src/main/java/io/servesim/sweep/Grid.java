package io.servesim.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigException;
import io.servesim.config.Overrides;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Expands a {@link SweepSpec} into cells: the cartesian product of its dimensions times its seeds.
 * A dimension is one axis, or one zip group whose axes move together (value i of each); a zip
 * group sits where its first axis is declared. Order: first dimension outermost, seeds innermost.
 * Each cell's config is the base with every axis assignment applied (axes in declaration order, as
 * {@code --set} would) and {@code seed} set.
 */
public final class Grid {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Grid() {
    }

    /**
     * The cells of a sweep, and the combinations whose assignments could not even be applied (e.g. a
     * path through a scalar); those are reported with the binding problems by {@link SweepPlan}.
     */
    public record Expansion(List<Cell> cells, List<InvalidCell> invalid) {
    }

    public static Expansion expand(SweepSpec spec) {
        List<Dimension> dimensions = dimensions(spec);
        List<Cell> cells = new ArrayList<>();
        List<InvalidCell> invalid = new ArrayList<>();
        int[] choice = new int[dimensions.size()];
        int[] valueOf = new int[spec.axes().size()];
        int index = 0;
        InputFiles inputs = new InputFiles();
        do {
            for (int d = 0; d < dimensions.size(); d++) {
                for (int axis : dimensions.get(d).axes()) {
                    valueOf[axis] = choice[d];
                }
            }
            List<Cell.AxisLabel> labels = new ArrayList<>();
            for (int a = 0; a < spec.axes().size(); a++) {
                Axis axis = spec.axes().get(a);
                labels.add(new Cell.AxisLabel(axis.name(), axis.values().get(valueOf[a]).label()));
            }
            for (long seed : spec.seeds()) {
                try {
                    JsonNode tree = canonical(resolve(spec, valueOf, seed));
                    String json = tree.toString();
                    String files = inputs.of(tree, spec.baseDir());
                    cells.add(new Cell(index, cellId(files.isEmpty() ? json : json + "\n" + files), labels, seed, json,
                            spec.baseDir().toString()));
                } catch (ConfigException e) {
                    invalid.add(new InvalidCell(labels, seed, e.problems()));
                }
                index++;
            }
        } while (advance(choice, dimensions));
        return new Expansion(cells, invalid);
    }

    /** The base with the chosen value of every axis applied and the seed set. */
    private static ObjectNode resolve(SweepSpec spec, int[] valueOf, long seed) {
        ObjectNode tree = spec.base().deepCopy();
        for (int a = 0; a < spec.axes().size(); a++) {
            for (Map.Entry<String, JsonNode> set : spec.axes().get(a).values().get(valueOf[a]).assignments().entrySet()) {
                Overrides.set(tree, set.getKey(), set.getValue().deepCopy());
            }
        }
        tree.set("seed", LongNode.valueOf(seed));
        return tree;
    }

    /**
     * Stable cell id: the first 16 hex digits of SHA-256 over the resolved config's canonical JSON (keys sorted, seed
     * included), followed by the contents of the files it reads when it reads any ({@link InputFiles}). Equal configs
     * over equal inputs get equal ids in any sweep, on any machine; an edited input gives new ids.
     */
    public static String cellId(String canonicalJson) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(canonicalJson.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One dimension of the product: the axes it moves (one, or a zip group) and its number of values. */
    private record Dimension(int[] axes, int size) {
    }

    private static List<Dimension> dimensions(SweepSpec spec) {
        List<String> names = spec.axisNames();
        List<Dimension> dims = new ArrayList<>();
        List<String> placed = new ArrayList<>();
        for (String name : names) {
            if (placed.contains(name)) {
                continue;
            }
            List<String> group = spec.zip().stream().filter(g -> g.contains(name)).findFirst().orElse(List.of(name));
            placed.addAll(group);
            dims.add(new Dimension(group.stream().mapToInt(names::indexOf).toArray(),
                    spec.axes().get(names.indexOf(name)).values().size()));
        }
        return dims;
    }

    /** Odometer step over the dimensions (last fastest); false after the last combination. */
    private static boolean advance(int[] choice, List<Dimension> dims) {
        for (int d = choice.length - 1; d >= 0; d--) {
            choice[d]++;
            if (choice[d] < dims.get(d).size()) {
                return true;
            }
            choice[d] = 0;
        }
        return false;
    }

    /** A copy of {@code node} with every mapping's keys sorted (so equal configs print equally). */
    static JsonNode canonical(JsonNode node) {
        if (node.isObject()) {
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            node.fields().forEachRemaining(e -> sorted.put(e.getKey(), canonical(e.getValue())));
            ObjectNode out = JSON.createObjectNode();
            sorted.forEach(out::set);
            return out;
        }
        if (node.isArray()) {
            var out = JSON.createArrayNode();
            node.forEach(e -> out.add(canonical(e)));
            return out;
        }
        return node;
    }
}
