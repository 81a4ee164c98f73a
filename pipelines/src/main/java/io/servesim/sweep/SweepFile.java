package io.servesim.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigException;
import io.servesim.config.ConfigNode;
import io.servesim.config.StrictJson;
import io.servesim.decisions.TraceLevel;
import io.servesim.decisions.TraceOptions;
import io.servesim.rng.PartitionedRng;
import io.servesim.run.PolicyBundleFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Binds a sweep file ({@code sweeps/*.yaml}) into a {@link SweepSpec}, strictly: unknown keys are
 * errors, and every problem names its exact path ({@code axes[1].values[2]}) and the valid choices.
 * All problems are reported at once. Relative paths (the {@code base} file, paths inside an inline
 * base) resolve against the sweep file's directory.
 *
 * <p>Seeds: {@code seeds: [1, 2]} lists them; {@code replicates: N} derives N seeds from the sweep
 * {@code seed} (default 1) as SplitMix64(seed XOR FNV-1a("replicate-i")), masked to be non-negative,
 * so adding replicates keeps the earlier ones.
 */
public final class SweepFile {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");
    private static final Pattern COLUMN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private SweepFile() {
    }

    /** The top-level keys only a sweep file has (a run config has none of them). */
    private static final List<String> SWEEP_KEYS = List.of("axes", "base", "name");

    /** Whether {@code tree} is a sweep file rather than a run config: it has a top-level {@code axes}, {@code base} or {@code name}. */
    public static boolean isSweep(JsonNode tree) {
        return tree != null && SWEEP_KEYS.stream().anyMatch(tree::has);
    }

    /** Reads and binds {@code file}; throws {@link ConfigException} listing every problem. */
    public static SweepSpec load(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        ObjectNode tree = StrictJson.readMapping(abs);
        return bind(tree, abs.getParent());
    }

    /** Binds a sweep tree whose relative paths resolve against {@code dir}. */
    public static SweepSpec bind(ObjectNode tree, Path dir) {
        ConfigNode root = ConfigNode.root(tree);
        String name = name(root, "the sweep name");
        Base base = base(root, dir, "sweep file");
        List<Axis> axes = axes(root, dir, base.dir());
        List<List<String>> zip = zip(root, axes);
        List<Long> seeds = seeds(root);
        SweepOutputs outputs = outputs(root.child("outputs"));
        root.finish();
        root.throwIfProblems();
        return new SweepSpec(name, base.tree(), base.dir(), axes, zip, seeds, outputs);
    }

    /** {@code name:} of a sweep or plan file ({@code what} it is, for the message), which names its output folder. */
    public static String name(ConfigNode root, String what) {
        String name = root.stringValue("name", null);
        if (name == null) {
            root.problem("name", "required: " + what + " (names the output directory out/<name>/)");
        } else if (!NAME.matcher(name).matches()) {
            root.problem("name", "must be letters, digits, '_', '.' or '-' (it names a directory), got '" + name + "'");
        }
        return name;
    }

    /**
     * The base run config of a sweep or plan file: its tree (null when it is missing or unreadable: a problem is then
     * recorded) and the folder its relative paths resolve against.
     */
    public record Base(ObjectNode tree, Path dir) {
    }

    /**
     * {@code base:} of the file bound at {@code root} (in {@code dir}, named {@code file} in messages): a run config file
     * relative to it, or an inline one (copied); problems go to {@code root}.
     */
    public static Base base(ConfigNode root, Path dir, String file) {
        JsonNode b = root.rawValue("base");
        if (b == null) {
            root.problem("base", "required: a run config file (relative to the " + file + ") or an inline run config");
        } else if (b.isTextual()) {
            Path f = dir.resolve(b.asText()).normalize();
            if (!Files.isReadable(f)) {
                root.problem("base", "cannot read run config " + f);
            } else {
                try {
                    return new Base(StrictJson.readMapping(f), f.getParent());
                } catch (ConfigException e) {
                    root.problem("base", e.getMessage());
                }
            }
        } else if (b instanceof ObjectNode inline) {
            return new Base(inline.deepCopy(), dir);
        } else {
            root.problem("base", "must be a run config file path or a mapping");
        }
        return new Base(null, dir);
    }

    /** Why {@code name} clashed with a name of {@code names} spelled otherwise, or nothing if it is spelled the same. */
    private static String caseNote(Set<String> names, String name) {
        return names.stream().anyMatch(name::equals) ? "" : " (SQL matches column names case-insensitively)";
    }

    private static List<Axis> axes(ConfigNode root, Path dir, Path baseDir) {
        List<Axis> axes = new ArrayList<>();
        if (!root.has("axes")) {
            root.declare("axes"); // given as null: not also an unknown key
            root.problem("axes", "required: a list of axes ({name, path, values}, {name, values: {label: {path: value}}}"
                    + " or {name, policy_configs: [file, ...]})");
            return axes;
        }
        Set<String> names = new TreeSet<>(String.CASE_INSENSITIVE_ORDER); // as SQL matches column names
        Set<String> reserved = DatasetSchemas.reservedColumns();
        Map<String, String> axisOfPath = new LinkedHashMap<>();
        for (ConfigNode a : root.list("axes")) {
            String name = a.stringValue("name", null);
            String at = a.pathOf("name");
            boolean named = false;
            if (name == null) {
                a.problem(at, "required: the axis column name");
            } else if (!COLUMN.matcher(name).matches()) {
                a.problem(at, "must be an identifier ([A-Za-z_][A-Za-z0-9_]*) usable as a column, got '" + name + "'");
            } else if (reserved.contains(name)) {
                a.problem(at, "'" + name + "' is already a column of the output datasets" + caseNote(reserved, name)
                        + "; pick another axis name");
            } else if (!names.add(name)) {
                a.problem(at, "duplicate axis name '" + name + "'" + caseNote(names, name));
            } else {
                named = true;
            }
            String path = a.stringValue("path", null);
            JsonNode values = a.rawValue("values");
            JsonNode candidates = a.rawValue("policy_configs");
            List<Axis.Value> bound = candidates == null ? values(a, path, values)
                    : candidates(a, path, values, candidates, dir, baseDir);
            a.finish();
            checkPathsOnce(a, name, path != null ? a.pathOf("path") : a.pathOf(candidates != null ? "policy_configs" : "values"),
                    bound, axisOfPath);
            if (named && !bound.isEmpty()) {
                axes.add(new Axis(name, bound));
            }
        }
        if (root.raw().get("axes").isArray() && root.raw().get("axes").isEmpty()) {
            root.problem("axes", "must list at least one axis");
        }
        return axes;
    }

    /**
     * Refuses a config path that an earlier axis sets too, or a path inside it (or around it): the later axis would
     * replace the earlier one's value in every cell, whose rows would still carry the earlier axis's label.
     */
    private static void checkPathsOnce(ConfigNode a, String name, String at, List<Axis.Value> bound,
                                       Map<String, String> axisOfPath) {
        Set<String> paths = new LinkedHashSet<>();
        bound.forEach(v -> paths.addAll(v.assignments().keySet()));
        for (String p : paths) {
            for (Map.Entry<String, String> earlier : axisOfPath.entrySet()) {
                String q = earlier.getKey();
                if (p.equals(q) || p.startsWith(q + ".") || q.startsWith(p + ".")) {
                    a.problem(at, p + (p.equals(q) ? " is" : " overlaps " + q + ",") + " set by axis " + earlier.getValue()
                            + " too: the later axis's value would replace the earlier's in every cell, whose rows would"
                            + " still carry both labels; set each config path on one axis (named alternatives set several"
                            + " paths together)");
                    return;
                }
            }
        }
        paths.forEach(p -> axisOfPath.putIfAbsent(p, name == null ? "?" : name));
    }

    private static List<Axis.Value> values(ConfigNode a, String path, JsonNode values) {
        String at = a.pathOf("values");
        List<Axis.Value> out = new ArrayList<>();
        Set<String> labels = new HashSet<>();
        if (values == null || values.isEmpty() || !(values.isArray() || values.isObject())) {
            a.problem(at, "required: a non-empty list of values (with path) or a mapping of label -> {path: value}");
            return out;
        }
        if (values.isArray()) {
            if (path == null) {
                a.problem(a.pathOf("path"), "required when values is a list (or give values as label -> {path: value})");
                return out;
            }
            List<JsonNode> numbers = new ArrayList<>();
            for (int i = 0; i < values.size(); i++) {
                JsonNode v = values.get(i);
                String label = v.isValueNode() ? v.asText() : v.toString();
                if (!labels.add(label)) {
                    a.problem(at + "[" + i + "]", "duplicate value '" + label + "'");
                } else if (v.isNumber()) {
                    // 1 and 1.0 are one setting under two labels: two cells of the same run
                    for (JsonNode n : numbers) {
                        if (n.decimalValue().compareTo(v.decimalValue()) == 0) {
                            a.problem(at + "[" + i + "]", "duplicate value " + v + " (equal to " + n + ")");
                        }
                    }
                    numbers.add(v);
                }
                Map<String, JsonNode> set = new LinkedHashMap<>();
                set.put(path, v);
                out.add(new Axis.Value(label, set));
            }
            return out;
        }
        if (path != null) {
            a.problem(a.pathOf("path"), "not allowed with named alternatives (values: {label: {path: value}}): each sets its own paths");
            return out;
        }
        values.fields().forEachRemaining(e -> {
            String vAt = at + "." + e.getKey();
            if (!(e.getValue() instanceof ObjectNode alt) || alt.isEmpty()) {
                a.problem(vAt, "must be a non-empty mapping of config path -> value, e.g. {deployment.tp: 2}");
                return;
            }
            Map<String, JsonNode> set = new LinkedHashMap<>();
            alt.fields().forEachRemaining(p -> set.put(p.getKey(), p.getValue()));
            out.add(new Axis.Value(e.getKey(), set));
        });
        return out;
    }

    /**
     * An axis of PolicyBundle files ({@code policy_configs: [cands/a.yaml, ...]}, relative to the
     * sweep file): each file is a value labelled by its path as written, setting {@code policies.<kind>}
     * for each kind it names, so a population of search candidates evaluates as one sweep. A code policy's source,
     * relative to its bundle, is written relative to {@code baseDir}, against which the cells are bound.
     */
    private static List<Axis.Value> candidates(ConfigNode a, String path, JsonNode values, JsonNode files, Path dir,
                                               Path baseDir) {
        String at = a.pathOf("policy_configs");
        List<Axis.Value> out = new ArrayList<>();
        if (path != null || values != null) {
            a.problem(at, "not allowed with path or values: each file sets its own policies.* paths");
            return out;
        }
        if (!files.isArray() || files.isEmpty()) {
            a.problem(at, "must be a non-empty list of PolicyBundle files (relative to the sweep file)");
            return out;
        }
        Set<String> labels = new HashSet<>();
        for (int i = 0; i < files.size(); i++) {
            String label = files.get(i).asText();
            if (!labels.add(label)) {
                a.problem(at + "[" + i + "]", "duplicate file '" + label + "'");
                continue;
            }
            try {
                Map<String, JsonNode> set = new LinkedHashMap<>();
                PolicyBundleFile.read(dir.resolve(label).normalize(), baseDir)
                        .forEach((kind, node) -> set.put("policies." + kind, node));
                out.add(new Axis.Value(label, set));
            } catch (ConfigException e) {
                a.problem(at + "[" + i + "]", e.getMessage());
            }
        }
        return out;
    }

    private static List<List<String>> zip(ConfigNode root, List<Axis> axes) {
        List<List<String>> groups = new ArrayList<>();
        JsonNode z = root.rawValue("zip");
        if (z == null) {
            return groups;
        }
        if (!z.isArray()) {
            root.problem("zip", "must be a list of axis-name lists, e.g. [[rate, slo_target]]");
            return groups;
        }
        Map<String, Integer> sizes = new LinkedHashMap<>();
        axes.forEach(x -> sizes.put(x.name(), x.values().size()));
        Set<String> used = new HashSet<>();
        for (int g = 0; g < z.size(); g++) {
            String gAt = "zip[" + g + "]";
            JsonNode group = z.get(g);
            if (!group.isArray() || group.size() < 2) {
                root.problem(gAt, "must be a list of at least two axis names");
                continue;
            }
            List<String> names = new ArrayList<>();
            Set<Integer> lengths = new LinkedHashSet<>();
            for (int i = 0; i < group.size(); i++) {
                String n = group.get(i).asText();
                if (!sizes.containsKey(n)) {
                    root.problem(gAt + "[" + i + "]", "unknown axis '" + n + "'; axes: " + String.join(", ", sizes.keySet()));
                } else if (!used.add(n)) {
                    root.problem(gAt + "[" + i + "]", "axis '" + n + "' is already zipped");
                } else {
                    names.add(n);
                    lengths.add(sizes.get(n));
                }
            }
            if (lengths.size() > 1) {
                root.problem(gAt, "zipped axes must have equal numbers of values; got " + names + " with " + lengths);
            }
            groups.add(names);
        }
        return groups;
    }

    private static List<Long> seeds(ConfigNode root) {
        List<Long> seeds = new ArrayList<>();
        JsonNode s = root.rawValue("seeds");
        boolean replicates = root.rawValue("replicates") != null;
        root.rawValue("seed");
        if (s != null && replicates) {
            root.problem("replicates", "give either seeds or replicates, not both");
            return seeds;
        }
        if (replicates) {
            int n = root.intValue("replicates", 1, 1, 1_000_000);
            long sweepSeed = root.longValue("seed", 1, Long.MIN_VALUE, Long.MAX_VALUE);
            for (int i = 0; i < n; i++) {
                seeds.add(replicateSeed(sweepSeed, i));
            }
            return seeds;
        }
        if (root.has("seed")) {
            root.longValue("seed", 1, Long.MIN_VALUE, Long.MAX_VALUE);
            root.problem("seed", "only used with replicates (it derives their seeds); with seeds, list them");
        }
        if (s == null || !s.isArray() || s.isEmpty()) {
            root.problem("seeds", "required: a non-empty list of seeds, or replicates: N");
            return seeds;
        }
        return listedSeeds(root, s);
    }

    /** The seeds of the non-empty list {@code s} under {@code seeds}, each an integer and none twice (else a problem). */
    public static List<Long> listedSeeds(ConfigNode root, JsonNode s) {
        List<Long> seeds = new ArrayList<>();
        for (int i = 0; i < s.size(); i++) {
            if (!s.get(i).isIntegralNumber()) {
                root.problem("seeds[" + i + "]", "must be an integer, got " + s.get(i));
            } else if (!s.get(i).canConvertToLong()) {
                // asLong would wrap it into another seed
                root.problem("seeds[" + i + "]", "must be an integer in [" + Long.MIN_VALUE + ", " + Long.MAX_VALUE
                        + "] (a 64-bit seed), got " + s.get(i));
            } else if (seeds.contains(s.get(i).asLong())) {
                root.problem("seeds[" + i + "]", "duplicate seed " + s.get(i).asLong());
            } else {
                seeds.add(s.get(i).asLong());
            }
        }
        return seeds;
    }

    /** The seed of replicate {@code i} of a sweep with seed {@code sweepSeed}. */
    public static long replicateSeed(long sweepSeed, int i) {
        return PartitionedRng.streamSeed(sweepSeed, "replicate-" + i) & Long.MAX_VALUE;
    }

    private static SweepOutputs outputs(ConfigNode o) {
        boolean requests = o.boolValue("requests", true);
        boolean sessions = o.boolValue("sessions", true);
        TraceLevel level = TraceLevel.of(o.choice("decisions", TraceLevel.NONE.key(),
                java.util.Arrays.stream(TraceLevel.values()).map(TraceLevel::key).toList()));
        int k = o.intValue("counterfactual_k", 0, 0, 64);
        if (k > 0 && level == TraceLevel.NONE) {
            o.problem(o.pathOf("counterfactual_k"), "needs decisions: decisions or detailed (counterfactuals are part of the trace)");
            k = 0;
        }
        boolean scaling = o.boolValue("scaling", false);
        o.finish();
        return new SweepOutputs(requests, sessions, new TraceOptions(level, k), scaling);
    }
}
