package io.servesim.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A YAML mapping being bound into records, tracking its path so every problem names the exact
 * config path ({@code engine.max_num_seqs}) and collecting problems instead of stopping at the
 * first. Strict: after binding, {@link #finish()} reports every key that was never read as unknown,
 * listing the valid keys. Nothing reads raw maps after binding.
 */
public final class ConfigNode {
    private final JsonNode node;
    private final String path;
    private final Bound bound;
    private final List<ConfigException.Problem> problems;
    private final Set<String> read = new LinkedHashSet<>();
    private final Set<String> refused = new HashSet<>();

    /** Where a setting's value came from, for {@code servesim config --effective}. */
    public enum Source {
        /** The setting's default. */
        DEFAULT,
        /** Absent, so derived by the binder (from the model, the GPU, ...): the setting's default text says how. */
        DERIVED,
        /** The config file (or a policy bundle, or a sweep's base and axis). */
        FILE,
        /** A command-line flag or {@code --set}. */
        FLAG
    }

    /**
     * One setting as bound: its concrete path, its declaration, its value as a config writes it (or, for a derived
     * setting left out, how it is derived), and where the value came from.
     */
    public record Resolved(String path, Setting<?> setting, String value, Source source) {
    }

    /** What every node of one document shares: the problems found, the settings bound and the paths flags set. */
    private record Bound(List<ConfigException.Problem> problems, List<Resolved> resolved, Set<String> fromFlags) {
    }

    private ConfigNode(JsonNode node, String path, Bound bound) {
        this.node = node == null ? MissingNode.getInstance() : node;
        this.path = path;
        this.bound = bound;
        this.problems = bound.problems();
    }

    /** The root of a document; problems accumulate in a fresh list. */
    public static ConfigNode root(JsonNode node) {
        return root(node, Set.of());
    }

    /**
     * The root of a document whose values at {@code fromFlags} (concrete paths, e.g. {@code engine.max_num_seqs}) were
     * set on the command line rather than written in the file.
     */
    public static ConfigNode root(JsonNode node, Set<String> fromFlags) {
        ConfigNode root = new ConfigNode(node, "", new Bound(new ArrayList<>(), new ArrayList<>(), Set.copyOf(fromFlags)));
        if (!root.node.isMissingNode() && !root.node.isNull() && !root.node.isObject()) {
            root.problem("", "must be a mapping");
        }
        return root;
    }

    /**
     * The root of a tree bound on its own that stands at {@code prefix} in this document (a workload mapping, bound
     * detached so a scenario can expand it): values the command line set under {@code prefix} count as flags there too.
     */
    public ConfigNode detached(JsonNode tree, String prefix) {
        String under = prefix + ".";
        Set<String> flags = new HashSet<>();
        for (String f : bound.fromFlags()) {
            if (f.startsWith(under)) {
                flags.add(f.substring(under.length()));
            }
        }
        return root(tree, flags);
    }

    /** Every setting bound so far in this document, in binding order. */
    public List<Resolved> resolved() {
        return List.copyOf(bound.resolved());
    }

    /**
     * The value of {@code setting} here: the key or one of its aliases (both set is a problem), parsed and
     * range-checked by the setting's type (a problem names the key the config wrote, the range and the reason), or
     * the default when absent (null for a derived setting, which the binder derives). Recorded with its source.
     */
    public <T> T get(Setting<T> setting) {
        String[] names = new String[setting.aliases().size() + 1];
        names[0] = setting.key();
        for (int i = 0; i < setting.aliases().size(); i++) {
            names[i + 1] = setting.aliases().get(i);
        }
        return read(setting, names, pathOf(setting.key()));
    }

    /**
     * The value of {@code setting} written under {@code key} here instead of under its own key: the short form of a
     * mapping ({@code queue_depth: on-demand} for {@code queue_depth: {mode: on-demand}}), recorded at {@code key}'s
     * path, where a problem is named too.
     */
    public <T> T get(String key, Setting<T> setting) {
        return read(setting, new String[] {key}, pathOf(key));
    }

    /**
     * {@link #get}, or empty when the value written is refused (the problem is recorded): for a binder that must not
     * go on with the default in the refused value's place (a policy's params under another policy's name).
     */
    public <T> Optional<T> valid(Setting<T> setting) {
        int before = problems.size();
        T v = get(setting);
        return problems.size() == before ? Optional.ofNullable(v) : Optional.empty();
    }

    private <T> T read(Setting<T> setting, String[] names, String at) {
        Found f = found(names);
        if (f == null) {
            boolean derived = setting.defaultValue() == null;
            bound.resolved().add(new Resolved(at, setting, setting.defaultText(), derived ? Source.DERIVED : Source.DEFAULT));
            return setting.defaultValue();
        }
        String written = pathOf(f.key());
        boolean fromFlag = fromFlag(written) || fromFlag(at);
        try {
            T v = setting.parse(f.value(), written);
            bound.resolved().add(new Resolved(at, setting, setting.type().render(v), fromFlag ? Source.FLAG : Source.FILE));
            return v;
        } catch (ConfigException e) {
            for (ConfigException.Problem p : e.problems()) { // a value the file does not hold is blamed on the command line
                problem(p.path(), fromFlag ? p.message() + " (given on the command line)" : p.message());
            }
            refused.add(setting.key());
            return setting.defaultValue();
        }
    }

    /**
     * Whether the config gave {@code setting} a value here that {@link #get} refused (the problem is recorded and
     * {@code get} returned the default): a check across settings ({@code stop_us > start_us}) skips a refused one
     * rather than judge the default the config did not give.
     */
    public boolean refused(Setting<?> setting) {
        return refused.contains(setting.key());
    }

    /**
     * Records the settings bound on {@code detached} (a tree bound on its own, such as a workload that a scenario
     * expands or a standalone file holds) as bound here under {@code prefix}: {@link #resolved()} then lists them
     * with the document's, a value a flag set at its prefixed path counted as the flag's.
     */
    public void adopt(ConfigNode detached, String prefix) {
        for (Resolved r : detached.resolved()) {
            String at = prefix.isEmpty() ? r.path() : prefix + "." + r.path();
            boolean flag = r.source() == Source.FILE && fromFlag(at);
            bound.resolved().add(new Resolved(at, r.setting(), r.value(), flag ? Source.FLAG : r.source()));
        }
    }

    /** Whether a flag set {@code path} or a mapping holding it ({@code --routing-policy} sets policies.routing, its name). */
    private boolean fromFlag(String path) {
        for (String p = path; !p.isEmpty(); p = p.substring(0, Math.max(0, Math.max(p.lastIndexOf('.'), p.lastIndexOf('['))))) {
            if (bound.fromFlags().contains(p)) {
                return true;
            }
        }
        return false;
    }

    /** {@link #get} of an integer setting with a default and an {@code int} range, as an {@code int}. */
    public int getInt(Setting<Long> setting) {
        if (setting.defaultValue() == null) {
            throw new IllegalArgumentException(setting + " has no default: read it with get() and derive it when null");
        }
        return Math.toIntExact(get(setting));
    }

    public String path() { return path; }
    public JsonNode raw() { return node; }
    public boolean present() { return !node.isMissingNode() && !node.isNull(); }

    /** The path of key {@code key} under this node. */
    public String pathOf(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    public void problem(String atPath, String message) {
        problems.add(new ConfigException.Problem(atPath, message));
    }

    /** Records the problems of {@code e} (thrown by a helper that checks one value) beside this node's own. */
    public void problems(ConfigException e) {
        problems.addAll(e.problems());
    }

    public boolean hasProblems() {
        return !problems.isEmpty();
    }

    /** Whether a problem was recorded at {@code atPath}: a cross-field check skips a value already refused there. */
    public boolean hasProblemAt(String atPath) {
        return problems.stream().anyMatch(p -> p.path().equals(atPath));
    }

    /**
     * Whether a problem was recorded at {@code prefix} or under it: {@code prefix.key}, {@code prefix[0]}, or in a file
     * it names ({@code prefix: /x/gpus.yaml gpus[0].name}).
     */
    public boolean hasProblemUnder(String prefix) {
        return problems.stream().anyMatch(p -> p.path().equals(prefix) || p.path().startsWith(prefix + ".")
                || p.path().startsWith(prefix + "[") || p.path().startsWith(prefix + ": "));
    }

    /** Throws all collected problems, if any. */
    public void throwIfProblems() {
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }

    /**
     * Declares {@code keys} valid here without reading them: a binder that reads a key only when it is
     * present (or reads it elsewhere) declares it, so the unknown-key message lists every valid key.
     */
    public void declare(String... keys) {
        read.addAll(List.of(keys));
    }

    /** Whether the value at {@code key} here came from the command line (a flag or {@code --set}), not the config file. */
    public boolean fromCommandLine(String key) {
        return fromFlag(pathOf(key));
    }

    public boolean has(String key) {
        JsonNode v = node.get(key);
        return v != null && !v.isNull();
    }

    /** A value found under {@code key}, one of the names a setting may be written under. */
    private record Found(String key, JsonNode value) {
    }

    /**
     * Reads the present key of {@code names} (a setting and its aliases, such as vLLM's
     * {@code max_num_running_reqs} for {@code max_num_seqs}); marks all as read. Two present names
     * are one setting written twice: refused naming both, since keeping either would drop the other
     * without a word.
     */
    private Found found(String... names) {
        Found found = null;
        for (String n : names) {
            read.add(n);
            JsonNode v = node.get(n);
            if (v == null || v.isNull()) {
                continue;
            }
            if (found == null) {
                found = new Found(n, v);
            } else {
                problem(pathOf(n), "is an alias of " + pathOf(found.key()) + ", which is also set (" + render(found.value())
                        + " and " + render(v) + "); set only one of them");
            }
        }
        return found;
    }

    private JsonNode value(String key) {
        Found f = found(key);
        return f == null ? null : f.value();
    }

    /** The raw value under {@code key} (marked as read), or null when absent. */
    public JsonNode rawValue(String key) {
        return value(key);
    }

    /**
     * A node at this node's path over another tree (an expanded built-in with this node's keys
     * laid over it): problems land in the same list, unknown keys are reported by its own
     * {@link #finish()}.
     */
    public ConfigNode over(JsonNode tree) {
        return new ConfigNode(tree, path, bound);
    }

    /** A child mapping (possibly absent: then every read returns defaults). */
    public ConfigNode child(String key) {
        read.add(key);
        JsonNode v = node.get(key);
        ConfigNode c = new ConfigNode(v, pathOf(key), bound);
        if (v != null && !v.isNull() && !v.isObject()) {
            problem(pathOf(key), "must be a mapping");
            return new ConfigNode(null, pathOf(key), bound);
        }
        return c;
    }

    /** Elements of a list of mappings under {@code key}; empty when absent. */
    public List<ConfigNode> list(String key) {
        read.add(key);
        JsonNode v = node.get(key);
        List<ConfigNode> out = new ArrayList<>();
        if (v == null || v.isNull()) {
            return out;
        }
        if (!v.isArray()) {
            problem(pathOf(key), "must be a list");
            return out;
        }
        for (int i = 0; i < v.size(); i++) {
            String p = pathOf(key) + "[" + i + "]";
            if (!v.get(i).isObject()) {
                problem(p, "must be a mapping");
                continue;
            }
            out.add(new ConfigNode(v.get(i), p, bound));
        }
        return out;
    }

    /**
     * An integer under {@code key} or one of its {@code aliases} (both set is a problem); a problem
     * names the key the config wrote.
     */
    public long longValue(String key, long dflt, long min, long max, String... aliases) {
        Found f = found(concat(key, aliases));
        if (f == null) {
            return dflt;
        }
        return longValue(f.key(), f.value(), dflt, min, max);
    }

    private long longValue(String key, JsonNode v, long dflt, long min, long max) {
        if (!v.isIntegralNumber() && !(v.isNumber() && v.asDouble() == Math.rint(v.asDouble()))) {
            problem(pathOf(key), "must be an integer, got " + render(v));
            return dflt;
        }
        if (!fitsLong(v)) {
            problem(pathOf(key), "must be an integer in [" + min + ", " + max + "], got " + v.asText());
            return dflt;
        }
        long x = v.asLong();
        if (x < min || x > max) {
            problem(pathOf(key), rangeMessage(min, max, x));
            return dflt;
        }
        return x;
    }

    /** Whether an integral number node holds a value a long represents (asLong would wrap or saturate). */
    private static boolean fitsLong(JsonNode v) {
        if (v.isIntegralNumber()) {
            return v.canConvertToLong();
        }
        double d = v.asDouble();
        return d >= -0x1p63 && d < 0x1p63;
    }

    public int intValue(String key, int dflt, int min, int max, String... aliases) {
        return (int) longValue(key, dflt, min, max, aliases);
    }

    public double doubleValue(String key, double dflt, double min, double max) {
        JsonNode v = value(key);
        if (v == null) {
            return dflt;
        }
        if (!v.isNumber()) {
            problem(pathOf(key), "must be a number, got " + render(v));
            return dflt;
        }
        double x = v.asDouble();
        if (!(x >= min && x <= max)) {
            problem(pathOf(key), rangeMessage(min, max, v));
            return dflt;
        }
        return x;
    }

    public boolean boolValue(String key, boolean dflt) {
        JsonNode v = value(key);
        if (v == null) {
            return dflt;
        }
        if (!v.isBoolean()) {
            problem(pathOf(key), "must be true or false, got " + render(v));
            return dflt;
        }
        return v.asBoolean();
    }

    public String stringValue(String key, String dflt) {
        JsonNode v = value(key);
        if (v == null) {
            return dflt;
        }
        if (!v.isValueNode()) {
            problem(pathOf(key), "must be a string, got " + render(v));
            return dflt;
        }
        return v.asText();
    }

    /** A string from a closed set (case-insensitive); the error lists the valid choices. */
    public String choice(String key, String dflt, Collection<String> valid) {
        String s = stringValue(key, dflt);
        if (s == null) {
            return null;
        }
        for (String c : valid) {
            if (c.equalsIgnoreCase(s)) {
                return c;
            }
        }
        problem(pathOf(key), "unknown value '" + s + "'; valid: " + String.join(", ", valid));
        return dflt;
    }

    /** Reports keys that were never read as unknown (strict binding). */
    public void finish() {
        if (!node.isObject()) {
            return;
        }
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String k = names.next();
            if (!read.contains(k)) {
                problem(pathOf(k), "unknown key; valid keys here: " + String.join(", ", new TreeSet<>(read)));
            }
        }
    }

    private static String[] concat(String key, String[] aliases) {
        String[] all = new String[aliases.length + 1];
        all[0] = key;
        System.arraycopy(aliases, 0, all, 1, aliases.length);
        return all;
    }

    private static String rangeMessage(long min, long max, long x) {
        if (x < min && (max == Long.MAX_VALUE || max == Integer.MAX_VALUE || max == Durations.MAX_US)) {
            return "must be >= " + min + ", got " + x;
        }
        return "must be in [" + min + ", " + max + "], got " + x;
    }

    /** A one-sided bound is stated as such ({@code must be >= 0, got -1}), never with Double.MAX_VALUE. */
    private static String rangeMessage(double min, double max, JsonNode v) {
        if (max == Double.MAX_VALUE && min != -Double.MAX_VALUE) {
            return "must be >= " + ValueType.plain(min) + ", got " + v.asText();
        }
        if (min == -Double.MAX_VALUE && max != Double.MAX_VALUE) {
            return "must be <= " + ValueType.plain(max) + ", got " + v.asText();
        }
        return "must be in [" + ValueType.plain(min) + ", " + ValueType.plain(max) + "], got " + ValueType.plain(v.asDouble());
    }

    private static String render(JsonNode v) {
        return v.isTextual() ? "'" + v.asText() + "'" : v.toString().toLowerCase(Locale.ROOT);
    }
}
