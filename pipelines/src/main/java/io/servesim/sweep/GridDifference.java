package io.servesim.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;

/**
 * What differs between the grid of an interrupted sweep (its {@code _SWEEP.yaml}; or a plan's {@code _PLAN.yaml}) and the
 * one asked for now, in words
 * a user can act on: the first few paths of the sweep definition whose values differ ({@code base.engine.max_num_seqs:
 * 256 then, 128 now}, {@code axes[1].values}, {@code seeds}), or, when the definitions are equal but the cell ids are
 * not, that a file the sweep reads (a workload or trace) changed, since a cell id hashes the resolved config.
 */
public final class GridDifference {
    private static final List<String> PARTS = List.of("base", "axes", "zip", "seeds");
    private static final int SHOWN = 4;

    private GridDifference() {
    }

    /** The difference between {@code then} and {@code now}, both in {@code _SWEEP.yaml}'s form. */
    static String describe(JsonNode then, JsonNode now) {
        return describe(then, now, PARTS, "the sweep definition is the same, but its cells' resolved configs differ: a file"
                + " it reads (a workload, trace or base config file) changed since");
    }

    /**
     * The first few paths under {@code parts} where the definitions {@code then} and {@code now} (a sweep's
     * {@code _SWEEP.yaml}, a plan's {@code _PLAN.yaml}) differ, or {@code same} when they do not.
     */
    public static String describe(JsonNode then, JsonNode now, List<String> parts, String same) {
        List<String> paths = new ArrayList<>();
        for (String part : parts) {
            diff(part, then.path(part), now.path(part), paths);
        }
        if (paths.isEmpty()) {
            return same;
        }
        String shown = String.join("; ", paths.subList(0, Math.min(SHOWN, paths.size())));
        return shown + (paths.size() > SHOWN ? "; and " + (paths.size() - SHOWN) + " more" : "");
    }

    private static void diff(String path, JsonNode a, JsonNode b, List<String> out) {
        if (a.toString().equals(b.toString())) { // as text: a number read back from YAML may be another node type
            return;
        }
        if (a.isObject() && b.isObject() && a.equals(b)) { // equal mappings whose keys come in another order
            List<String> then = new ArrayList<>();
            List<String> now = new ArrayList<>();
            a.fieldNames().forEachRemaining(then::add);
            b.fieldNames().forEachRemaining(now::add);
            if (!then.equals(now)) { // an axis's values reordered: other cell indices
                out.add(path + ": in another order (" + then + " then, " + now + " now)");
                return;
            }
        }
        if (a.isObject() && b.isObject()) {
            TreeSet<String> keys = new TreeSet<>();
            a.fieldNames().forEachRemaining(keys::add);
            b.fieldNames().forEachRemaining(keys::add);
            for (String k : keys) {
                diff(path + "." + k, a.path(k), b.path(k), out);
            }
        } else if (a.isArray() && b.isArray() && a.size() == b.size() && !a.isEmpty() && a.get(0).isContainerNode()) {
            Iterator<JsonNode> ia = a.elements();
            Iterator<JsonNode> ib = b.elements();
            for (int i = 0; ia.hasNext(); i++) {
                diff(path + "[" + i + "]", ia.next(), ib.next(), out);
            }
        } else {
            out.add(path + ": " + show(a) + " then, " + show(b) + " now");
        }
    }

    private static String show(JsonNode n) {
        return n.isMissingNode() ? "absent" : n.toString();
    }
}
