package io.servesim.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Applies {@code path=value} overrides ({@code --set engine.max_num_seqs=128},
 * {@code --set workload.clients[1].rate_fraction=0.3}) to a config tree before binding. Values are
 * parsed as YAML scalars or flow collections, so {@code 128} is a number and {@code [1,2]} a list.
 * Missing intermediate mappings are created; list indexes must exist. An override to {@code null} removes the key
 * ({@code --set engine.block_size=null} before {@code --set engine.kind=sglang}, whose engine has no block size), as a
 * null in a config reads as the key left out.
 */
public final class Overrides {
    private static final ObjectMapper YAML = StrictJson.yaml();
    private static final Pattern SEGMENT = Pattern.compile("([A-Za-z0-9_\\-]+)((?:\\[\\d+])*)");
    private static final Pattern INDEX = Pattern.compile("\\[(\\d+)]");

    private Overrides() {
    }

    /** Parses {@code "a.b=1"} into a path and a value node. */
    public static void apply(ObjectNode root, String assignment) {
        int eq = assignment.indexOf('=');
        if (eq <= 0) {
            throw new ConfigException("--set " + assignment, "expected path=value");
        }
        String path = assignment.substring(0, eq).trim();
        JsonNode value;
        try {
            value = YAML.readTree(assignment.substring(eq + 1));
        } catch (JsonProcessingException e) {
            if (StrictJson.isDuplicateKey(e)) {
                throw new ConfigException(List.of(StrictJson.duplicateKey(e, "--set " + path + "=...", path)));
            }
            String text = assignment.substring(eq + 1);
            int column = e.getLocation() == null ? -1 : e.getLocation().getColumnNr();
            throw new ConfigException(path, "value '" + text + "' is not valid YAML" + (column > 0 ? " (column " + column + ")" : "")
                    + ": " + ReadFailure.parserMessage(e));
        }
        set(root, path, value == null || value.isMissingNode() ? YAML.nullNode() : value, true);
    }

    /**
     * Sets {@code value} at dotted {@code path} (with optional {@code [i]} list indexes), replacing the
     * key's aliases ({@link Aliases}) where the mapping writes the setting under another name.
     */
    public static void set(ObjectNode root, String path, JsonNode value) {
        set(root, path, value, false);
    }

    /** {@link #set}; with {@code nullUnsets}, a null value removes the key instead of writing null. */
    private static void set(ObjectNode root, String path, JsonNode value, boolean nullUnsets) {
        String[] parts = path.split("\\.");
        JsonNode cur = root;
        StringBuilder at = new StringBuilder();
        for (int p = 0; p < parts.length; p++) {
            Matcher m = SEGMENT.matcher(parts[p]);
            if (!m.matches()) {
                throw new ConfigException(path, "bad path segment '" + parts[p] + "'");
            }
            String key = m.group(1);
            List<Integer> indexes = new ArrayList<>();
            Matcher im = INDEX.matcher(m.group(2));
            while (im.find()) {
                indexes.add(Integer.parseInt(im.group(1)));
            }
            if (!(cur instanceof ObjectNode obj)) {
                throw new ConfigException(at.toString(), cur.isTextual() && at.toString().equals("workload")
                        ? "is the workload file '" + cur.asText() + "', whose keys an override cannot reach; cannot set "
                        + path + ": --rate and --num-requests apply to a workload file; for any other key write the"
                        + " workload inline (or in a copy of the file) and set it there"
                        : "is not a mapping; cannot set " + path);
            }
            at.append(at.length() == 0 ? "" : ".").append(key);
            boolean last = p == parts.length - 1;
            if (indexes.isEmpty()) {
                if (last) {
                    // the override replaces the setting, whichever of its names the config wrote it under
                    Aliases.names(key).forEach(obj::remove);
                    if (!(nullUnsets && value.isNull())) {
                        obj.set(key, value);
                    }
                    return;
                }
                JsonNode next = obj.get(key);
                if (next == null || next.isNull()) {
                    next = obj.putObject(key);
                }
                cur = next;
                continue;
            }
            JsonNode list = obj.get(key);
            for (int k = 0; k < indexes.size(); k++) {
                int idx = indexes.get(k);
                if (!(list instanceof ArrayNode arr) || idx >= arr.size()) {
                    throw new ConfigException(at + "[" + idx + "]", "no such list element (override " + path + ")");
                }
                at.append('[').append(idx).append(']');
                if (last && k == indexes.size() - 1) {
                    arr.set(idx, value);
                    return;
                }
                list = arr.get(idx);
            }
            cur = list;
        }
    }
}
