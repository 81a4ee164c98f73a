package io.servesim.evolve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.servesim.config.ConfigException;
import io.servesim.config.ConfigNode;
import io.servesim.config.Setting;
import io.servesim.config.StrictJson;
import io.servesim.config.ValueType;
import io.servesim.metrics.FitnessWeights;
import io.servesim.run.PolicyKind;
import io.servesim.sweep.SweepFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Binds an evolve file ({@code sweeps/evolve/*.yaml}) into an {@link EvolveSpec}, strictly, as a sweep or plan file is
 * bound: unknown keys are errors, every problem names its path in the file ({@code search.routing.load.max}) with the
 * valid choices or range, and all problems are reported at once.
 *
 * <pre>
 * name: routing-weights                       # names the output folder out/&lt;name&gt;/
 * base: ../configs/llama8b-h100-4x.yaml       # a run config file (relative to this file) or an inline one
 * fitness_weights: "ttft_p99_ms:0.5,e2e_p99_ms:0.5"   # as the run config's: catalog fitness keys, higher fitness is better
 * policies:                                   # the template every candidate fills in (a policy bundle)
 *   routing: {name: weighted-scoring, params: {kv_utilization: 0}}   # params not searched stay as written
 * search:                                     # &lt;kind&gt;.&lt;param&gt; of the template: numbers, integers or durations (seconds)
 *   routing.cache_affinity: {min: 0, max: 4, start: 1, sigma: 1}   # start: default the template's value or the default
 * cmaes: {population: 8, generations: 6, seed: 1}   # lambda, generations after the start point, the search's seed
 * train: {workloads: {mooncake: ../workloads/x.yaml}, seeds: [1, 2]}   # a file (relative to this file) or inline
 * held_out: {workloads: {azure: {...}}, seeds: [1]}   # never searched on; the best candidate is reported on it
 * baselines: {round-robin: {routing: {name: round-robin}}}   # policy bundles reported beside the best, on both
 * </pre>
 */
public final class EvolveFile {
    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");
    private static final List<String> KINDS = PolicyKind.ALL.stream().map(PolicyKind::name).toList();

    private EvolveFile() {
    }

    /** Reads and binds {@code file}; throws {@link ConfigException} listing every problem. */
    public static EvolveSpec load(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        return bind(StrictJson.readMapping(abs), abs.getParent());
    }

    /** Binds an evolve tree whose relative paths resolve against {@code dir}. */
    static EvolveSpec bind(ObjectNode tree, Path dir) {
        ConfigNode root = ConfigNode.root(tree);
        String name = SweepFile.name(root, "the search's name");
        SweepFile.Base base = SweepFile.base(root, dir, "evolve file");
        String fitnessText = root.stringValue("fitness_weights", null);
        FitnessWeights fitness = FitnessWeights.NONE;
        if ((fitnessText == null || fitnessText.isBlank()) && !root.hasProblemAt("fitness_weights")) {
            root.problem("fitness_weights", "required: what the search maximises, as a run config's fitness_weights"
                    + " (key:weight,...); valid keys: " + String.join(", ", FitnessWeights.KEYS));
        } else if (fitnessText != null && !fitnessText.isBlank()) {
            try {
                fitness = FitnessWeights.parse(fitnessText, "fitness_weights");
            } catch (ConfigException e) {
                root.problems(e);
            }
        }
        Map<String, JsonNode> policies = policies(root);
        List<Param> params = params(root, policies);
        ConfigNode c = root.child("cmaes");
        int population = c.intValue("population", 8, 2, 10_000);
        int generations = c.intValue("generations", 6, 1, 10_000);
        long seed = c.longValue("seed", 1, Long.MIN_VALUE, Long.MAX_VALUE);
        c.finish();
        EvolveSpec.Split train = split(root, "train", dir);
        EvolveSpec.Split heldOut = split(root, "held_out", dir);
        checkHeldOutIsNotTraining(root, train, heldOut);
        Map<String, Map<String, JsonNode>> baselines = baselines(root);
        root.finish();
        root.throwIfProblems();
        ObjectNode b = base.tree().deepCopy();
        b.put("fitness_weights", fitnessText);
        return new EvolveSpec(name, b, base.dir(), fitnessText, fitness, policies, params, population, generations, seed,
                train, heldOut, baselines);
    }

    /**
     * A held-out workload that is a training one under a training seed (any seed, for a trace, which replays the same
     * requests under every seed) repeats training runs: the check it promises, on what was never searched on, would
     * measure nothing new.
     */
    private static void checkHeldOutIsNotTraining(ConfigNode root, EvolveSpec.Split train, EvolveSpec.Split heldOut) {
        boolean sharedSeed = !java.util.Collections.disjoint(train.seeds(), heldOut.seeds());
        heldOut.workloads().forEach((label, held) -> train.workloads().forEach((trainLabel, trained) -> {
            if (held.equals(trained) && (sharedSeed || held.has("trace"))) {
                root.problem("held_out.workloads." + label, "the same workload as train.workloads." + trainLabel
                        + (held.has("trace") ? " (a trace replays the same requests under every seed)"
                        : " under a training seed (held_out.seeds " + heldOut.seeds() + ", train.seeds " + train.seeds() + ")")
                        + ": its runs would repeat training runs, so the held-out check would measure nothing new; hold out"
                        + " another workload, or other seeds of a generated one");
            }
        }));
    }

    private static Map<String, JsonNode> policies(ConfigNode root) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        JsonNode p = root.rawValue("policies");
        if (p == null || !p.isObject() || p.isEmpty()) {
            root.problem("policies", "required: the template, a mapping of policy kind to {name, params}, e.g. {routing:"
                    + " {name: weighted-scoring}}; kinds: " + String.join(", ", KINDS));
            return out;
        }
        p.fields().forEachRemaining(e -> {
            String at = "policies." + e.getKey();
            Optional<PolicyKind<?>> kind = kind(e.getKey());
            if (kind.isEmpty()) {
                root.problem(at, "unknown policy kind; valid: " + String.join(", ", KINDS));
            } else if (!e.getValue().isObject() || !e.getValue().path("name").isTextual()) {
                root.problem(at, "must be a mapping {name, params} naming a " + e.getKey() + " policy");
            } else if (!kind.get().registry().names().contains(e.getValue().get("name").asText())) {
                root.problem(at + ".name", "unknown " + e.getKey() + " policy '" + e.getValue().get("name").asText()
                        + "'; valid: " + String.join(", ", kind.get().registry().names()));
            } else {
                out.put(e.getKey(), e.getValue().deepCopy());
            }
        });
        return out;
    }

    private static Optional<PolicyKind<?>> kind(String name) {
        return PolicyKind.ALL.stream().<PolicyKind<?>>map(k -> k).filter(k -> k.name().equals(name)).findFirst();
    }

    private static List<Param> params(ConfigNode root, Map<String, JsonNode> policies) {
        List<Param> out = new ArrayList<>();
        JsonNode s = root.rawValue("search");
        if (s == null || !s.isObject() || s.isEmpty()) {
            root.problem("search", "required: the parameters searched, <kind>.<param>: {min, max, start, sigma}, e.g."
                    + " routing.cache_affinity: {min: 0, max: 4, sigma: 1}");
            return out;
        }
        ConfigNode search = root.child("search");
        s.fields().forEachRemaining(e -> {
            String at = "search." + e.getKey();
            ConfigNode p = search.child(e.getKey());
            String[] parts = e.getKey().split("\\.", 2);
            JsonNode template = policies.get(parts[0]);
            if (parts.length != 2 || template == null) {
                root.problem(at, "must be <kind>.<param> of a policy in policies: (" + String.join(", ", policies.keySet())
                        + ")");
                return;
            }
            String policy = template.get("name").asText();
            String path = "policies." + parts[0] + "[" + policy + "].params." + parts[1];
            List<Setting<?>> declared = kind(parts[0]).orElseThrow().registry().settings().stream()
                    .filter(x -> x.path().startsWith("policies." + parts[0] + "[" + policy + "].")).toList();
            Optional<Setting<?>> setting = declared.stream().filter(x -> x.path().equals(path)).findFirst();
            if (setting.isEmpty()) {
                List<String> numeric = declared.stream().filter(x -> range(x.type()) != null).map(Setting::key).toList();
                root.problem(at, parts[0] + " policy " + policy + " has no parameter '" + parts[1] + "'; "
                        + (numeric.isEmpty() ? "it has no numeric parameter to search (choose a template that has)"
                        : "its numeric parameters: " + String.join(", ", numeric)));
                return;
            }
            if (template.path("params").has(parts[1])) {
                root.problem(at, "policies." + parts[0] + ".params." + parts[1] + " is set in the template too; the search"
                        + " sets it (remove it there, or give it as start:)");
                return;
            }
            if (!p.present()) {
                if (e.getValue().isNull()) {
                    root.problem(at, "must be a mapping {min, max, start, sigma}");
                }
                return; // not a mapping (child() said so): min / max / sigma cannot be read from it
            }
            Param param = param(p, parts[0], parts[1], setting.get());
            p.finish();
            if (param != null) {
                out.add(param);
            }
        });
        return out;
    }

    /** The valid range of a searchable type ({min, max, min excluded}, durations in seconds), or null. */
    private static double[] range(ValueType<?> t) {
        if (t instanceof ValueType.Real r) {
            return new double[] {r.min(), r.max(), r.minExcluded() ? 1 : 0};
        }
        if (t instanceof ValueType.Int i) {
            return new double[] {i.min(), i.max(), 0};
        }
        if (t instanceof ValueType.Duration d) {
            return new double[] {d.minUs() / 1e6, d.maxUs() / 1e6, 0};
        }
        return null;
    }

    private static Param param(ConfigNode p, String kind, String key, Setting<?> setting) {
        p.declare("min", "max", "start", "sigma");
        double[] range = range(setting.type());
        if (range == null) {
            p.problem(p.path(), "'" + key + "' is " + setting.type().describe() + ": only numbers, integers and durations"
                    + " are searched");
            return null;
        }
        Param.Type type = setting.type() instanceof ValueType.Real ? Param.Type.REAL
                : setting.type() instanceof ValueType.Int ? Param.Type.INTEGER : Param.Type.SECONDS;
        String unit = type == Param.Type.SECONDS ? " s" : "";
        String valid = (range[2] > 0 ? "(" : "[") + ValueType.plain(range[0]) + ", " + ValueType.plain(range[1]) + "]"
                + unit + " (" + setting.path() + ": " + setting.type().describe() + ")";
        double min = bounded(p, "min", range, valid);
        double max = bounded(p, "max", range, valid);
        if (!(min < max)) {
            p.problem(p.pathOf("max"), "must be above min (" + ValueType.plain(min) + "), got " + ValueType.plain(max));
            return null;
        }
        double dflt = setting.defaultValue() == null ? (min + max) / 2 : type == Param.Type.SECONDS
                ? ((Number) setting.defaultValue()).doubleValue() / 1e6 : ((Number) setting.defaultValue()).doubleValue();
        double start = p.doubleValue("start", Math.min(max, Math.max(min, dflt)), min, max);
        JsonNode sigma = p.rawValue("sigma");
        String steps = "in (0, " + ValueType.plain(max - min) + "] (max - min: CMA-ES's initial step along this parameter)";
        if (sigma == null) {
            p.problem(p.pathOf("sigma"), "required: a number " + steps);
            return null;
        }
        if (!sigma.isNumber() || !(sigma.asDouble() > 0) || sigma.asDouble() > max - min) {
            p.problem(p.pathOf("sigma"), "must be a number " + steps + ", got " + sigma);
            return null;
        }
        return new Param(kind, key, type, min, max, start, sigma.asDouble());
    }

    private static double bounded(ConfigNode p, String key, double[] range, String valid) {
        if (!p.has(key)) {
            p.problem(p.pathOf(key), "required: the " + (key.equals("min") ? "lowest" : "highest") + " value searched,"
                    + " within " + valid);
            return key.equals("min") ? range[0] : range[1];
        }
        JsonNode v = p.rawValue(key);
        double x = v.asDouble();
        boolean low = range[2] > 0 ? !(x > range[0]) : !(x >= range[0]);
        if (!v.isNumber() || low || !(x <= range[1])) {
            p.problem(p.pathOf(key), "must be a number within " + valid + ", got " + v);
            return key.equals("min") ? range[0] : range[1];
        }
        return x;
    }

    private static EvolveSpec.Split split(ConfigNode root, String key, Path dir) {
        ConfigNode s = root.child(key);
        Map<String, JsonNode> workloads = new LinkedHashMap<>();
        List<Long> seeds = new ArrayList<>();
        if (!s.present()) {
            root.problem(key, "required: {workloads: {label: file or inline workload}, seeds: [...]}");
            return new EvolveSpec.Split(workloads, seeds);
        }
        JsonNode w = s.rawValue("workloads");
        if (w == null || !w.isObject() || w.isEmpty()) {
            s.problem(s.pathOf("workloads"), "required: a mapping of label -> workload file (relative to the evolve"
                    + " file) or inline workload");
        } else {
            w.fields().forEachRemaining(e -> {
                String at = s.pathOf("workloads") + "." + e.getKey();
                if (!LABEL.matcher(e.getKey()).matches()) {
                    s.problem(at, "a label must be letters, digits, '_', '.' or '-'");
                } else if (e.getValue().isTextual()) {
                    Path f = dir.resolve(e.getValue().asText()).normalize();
                    if (!Files.isReadable(f)) {
                        s.problem(at, "cannot read workload file " + f);
                    } else {
                        workloads.put(e.getKey(), TextNode.valueOf(f.toString()));
                    }
                } else if (e.getValue().isObject()) {
                    workloads.put(e.getKey(), e.getValue().deepCopy());
                } else {
                    s.problem(at, "must be a workload file (relative to the evolve file) or an inline workload mapping");
                }
            });
        }
        JsonNode sd = s.rawValue("seeds");
        if (sd == null || sd.isArray() && sd.isEmpty()) {
            s.problem(s.pathOf("seeds"), "required: a non-empty list of seeds");
        } else if (!sd.isArray()) {
            s.problem(s.pathOf("seeds"), "must be a list of integer seeds, e.g. [1, 2], got " + sd);
        } else {
            for (int i = 0; i < sd.size(); i++) {
                if (!sd.get(i).isIntegralNumber()) {
                    s.problem(s.pathOf("seeds") + "[" + i + "]", "must be an integer, got " + sd.get(i));
                } else if (seeds.contains(sd.get(i).asLong())) {
                    s.problem(s.pathOf("seeds") + "[" + i + "]", "duplicate seed " + sd.get(i).asLong()
                            + " (the same deterministic run twice would weigh it double)");
                } else {
                    seeds.add(sd.get(i).asLong());
                }
            }
        }
        s.finish();
        return new EvolveSpec.Split(workloads, seeds);
    }

    private static Map<String, Map<String, JsonNode>> baselines(ConfigNode root) {
        Map<String, Map<String, JsonNode>> out = new LinkedHashMap<>();
        JsonNode b = root.rawValue("baselines");
        if (b == null) {
            return out;
        }
        if (!b.isObject()) {
            root.problem("baselines", "must be a mapping of label -> policy bundle ({kind: {name, params}})");
            return out;
        }
        b.fields().forEachRemaining(e -> {
            String at = "baselines." + e.getKey();
            if (!LABEL.matcher(e.getKey()).matches() || e.getKey().equals(EvolveRounds.BEST)) {
                root.problem(at, "a label must be letters, digits, '_', '.' or '-', and not '" + EvolveRounds.BEST + "'");
                return;
            }
            if (!e.getValue().isObject() || e.getValue().isEmpty()) {
                root.problem(at, "must be a policy bundle: {kind: {name, params}}, kinds " + String.join(", ", KINDS));
                return;
            }
            Map<String, JsonNode> bundle = new LinkedHashMap<>();
            e.getValue().fields().forEachRemaining(k -> {
                if (!KINDS.contains(k.getKey())) {
                    root.problem(at + "." + k.getKey(), "unknown policy kind; valid: " + String.join(", ", KINDS));
                } else {
                    bundle.put(k.getKey(), k.getValue().deepCopy());
                }
            });
            out.put(e.getKey(), bundle);
        });
        return out;
    }
}
