package io.servesim.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigException;
import io.servesim.config.ConfigNode;
import io.servesim.config.Overrides;
import io.servesim.config.Setting;
import io.servesim.config.StrictJson;
import io.servesim.run.PolicyBundleFile;
import io.servesim.run.PolicyKind;
import io.servesim.run.SimConfig;
import io.servesim.run.SimConfigLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import picocli.CommandLine.Option;

/**
 * Options shared by commands that load a run config: the file, {@code --set} overrides and the
 * common knobs as flags. Each flag is just an override of one config path (shown in its help), so
 * a flag can never be accepted and ignored; the workload flags follow the workload's form ({@link WorkloadFlags}:
 * applied, or refused with the reason). Precedence: file, then flags, then {@code --set}. A command
 * that mixes these in declares {@code modelTransformer = CatalogFlags.class} for the flags generated from the
 * settings catalog and the policy registries.
 */
public final class ConfigOptions {
    @Option(names = "--set", paramLabel = "PATH=VALUE", description = "Override any config value, e.g. engine.max_num_seqs=128; PATH=null removes the key (repeatable).")
    List<String> sets = new ArrayList<>();

    @Option(names = "--gpus", paramLabel = "FILE", description = "deployment.gpus: GPU rows in gpus.yaml's format (datasheet"
            + " numbers) that --hardware may name; latency on them is uncalibrated")
    Path gpus;

    /** The catalog settings' flags given, by setting (the flags themselves are added by {@link CatalogFlags}). */
    final Map<Setting<?>, String> settings = new LinkedHashMap<>();

    @Option(names = "--policy-config", paramLabel = "FILE", description = "PolicyBundle YAML: any policy kind of the policies: section"
            + " (each a name or {name, params}); flags override it")
    Path policyConfig;

    /**
     * The overrides the catalog flags other than the workload ones ({@link WorkloadFlags}) stand for, each at its
     * setting's path except a policy's: a kind's name flag ({@code --routing-policy}) sets the kind's policy where
     * {@code tree} writes it ({@link PolicyKind#configPathIn}: {@code autoscaling.policy} or {@code policies.autoscale}),
     * replacing it whole (another policy's params would not apply), or only its name when a flag also sets one of its
     * params ({@code --autoscaler-threshold}: {@code params.scale_up} of the policy there); a name that may also be
     * written {@code {name, params}} ({@code deployment.pd.decode_routing}) is replaced whole too.
     */
    private List<String> overrides(JsonNode tree) {
        Set<PolicyKind<?>> withParams = kindsWithParams(tree);
        List<String> o = new ArrayList<>();
        settings.forEach((setting, value) -> {
            if (WorkloadFlags.SETTINGS.contains(setting)) {
                return;
            }
            PolicyKind<?> kind = PolicyKind.of(setting);
            String path = setting.path();
            if (kind != null) {
                String at = kind.configPathIn(tree);
                path = setting != kind.nameSetting() ? at + ".params." + setting.key()
                        : withParams.contains(kind) ? at + ".name" : at;
            } else if (path.endsWith(".name")) {
                path = path.substring(0, path.length() - ".name".length());
            }
            o.add(path + "=" + flagValue(value));
        });
        add(o, "deployment.gpus", gpus == null ? null : gpus.toAbsolutePath().toString());
        return o;
    }

    /**
     * The policy kinds one of whose parameters a flag or a {@code --set} sets ({@code --set
     * policies.admission.params.max_rps=3.5}, where {@code tree} writes the kind's policy): a name flag then sets only
     * the name.
     */
    Set<PolicyKind<?>> kindsWithParams(JsonNode tree) {
        Set<PolicyKind<?>> kinds = new LinkedHashSet<>();
        for (Setting<?> s : settings.keySet()) {
            PolicyKind<?> kind = PolicyKind.of(s);
            if (kind != null && s != kind.nameSetting()) {
                kinds.add(kind);
            }
        }
        for (PolicyKind<?> kind : PolicyKind.ALL) {
            String at = kind.configPathIn(tree);
            for (String set : sets) {
                String key = set.substring(0, Math.max(0, set.indexOf('='))).trim();
                if (key.startsWith(at + ".params.") || key.equals(at + ".params")) {
                    kinds.add(kind);
                }
            }
        }
        return kinds;
    }

    /**
     * The config tree as {@link #load} binds it: with every flag and {@code --set} applied (the workload flags only
     * where the workload is inline: for a workload file they apply after binding), and the folder its relative paths
     * resolve against.
     *
     * @param tree          the config
     * @param baseDir       the config file's folder (the working directory without one)
     * @param fromFlags     the paths the command line set
     * @param fromBundle    the policies the policy bundle set, by path
     * @param workloadFlags the workload flags
     * @param finalWorkload the {@code workload} node once every override is applied
     */
    record Tree(ObjectNode tree, Path baseDir, Set<String> fromFlags, Map<String, JsonNode> fromBundle,
                WorkloadFlags workloadFlags, JsonNode finalWorkload) {
    }

    /**
     * Config file, then the policy bundle, then the default workload if there is none (said on {@code notes}),
     * then flags, then {@code --set}; bound strictly. The workload flags apply per the workload's final form
     * ({@link WorkloadFlags}).
     */
    SimConfig load(Path file, Consumer<String> notes) {
        Tree p = tree(file, notes);
        SimConfig bound;
        try {
            bound = SimConfigLoader.bind(p.tree(), p.baseDir(), p.fromFlags());
        } catch (ConfigException e) {
            throw p.fromBundle().isEmpty() ? e : PolicyBundleFile.blame(e, policyConfig, p.fromBundle(), p.tree());
        }
        return p.workloadFlags().applyToFile(bound, p.finalWorkload());
    }

    /** As {@link #load}, each setting's resolved value and where it came from ({@code servesim config --effective}). */
    List<ConfigNode.Resolved> effective(Path file, Consumer<String> notes) {
        Tree p = tree(file, notes);
        try {
            return p.workloadFlags().applyToFileRows(SimConfigLoader.effective(p.tree(), p.baseDir(), p.fromFlags()),
                    p.finalWorkload());
        } catch (ConfigException e) {
            throw p.fromBundle().isEmpty() ? e : PolicyBundleFile.blame(e, policyConfig, p.fromBundle(), p.tree());
        }
    }

    /** The config tree ({@link Tree}) of {@code file} (null: none) and the flags; notes as {@link #load}'s. */
    Tree tree(Path file, Consumer<String> notes) {
        WorkloadFlags workloadFlags = new WorkloadFlags(settings);
        ObjectNode tree = file == null ? JsonNodeFactory.instance.objectNode() : StrictJson.readMapping(file);
        Map<String, JsonNode> fromBundle = policyConfig == null ? Map.of() : PolicyBundleFile.apply(policyConfig, tree);
        kindsWithParams(tree).forEach(kind -> policyAsMapping(tree, kind));
        // a --set that gives the workload its own shape (a scenario, a trace, clients, stages) replaces the default
        // rather than editing it: the default's chat keys (its Poisson arrival) are not the other scenario's
        boolean defaulted = sets.stream().noneMatch(ConfigOptions::shapesWorkload) && SimConfigLoader.addDefaultWorkload(tree);
        ObjectNode withSets = tree.deepCopy();
        sets.forEach(s -> Overrides.apply(withSets, s));
        JsonNode finalWorkload = withSets.get("workload");
        List<String> all = overrides(tree);
        all.addAll(workloadFlags.overrides(finalWorkload));
        refuseConflicts(all);
        all.addAll(sets);
        Set<String> fromFlags = new HashSet<>();
        for (String o : all) {
            Overrides.apply(tree, o);
            fromFlags.add(o.substring(0, Math.max(0, o.indexOf('='))).trim());
        }
        if (defaulted) {
            SimConfigLoader.defaultWorkloadText(tree.get("workload"))
                    .ifPresent(text -> notes.accept("no workload in the config: " + text));
        }
        Path baseDir = file == null ? Path.of("") : file.toAbsolutePath().getParent();
        return new Tree(tree, baseDir, fromFlags, fromBundle, workloadFlags, finalWorkload);
    }

    /**
     * Refuses a {@code --set} of a path one of the command's own flags also sets ({@code flagOverrides}) to another
     * value: which one wins would be the order they are applied in, not the order they were given.
     */
    private void refuseConflicts(List<String> flagOverrides) {
        Map<String, String> byPath = new LinkedHashMap<>();
        for (String o : flagOverrides) {
            int eq = o.indexOf('=');
            byPath.put(o.substring(0, eq).trim(), o.substring(eq + 1).trim());
        }
        for (String set : sets) {
            int eq = set.indexOf('=');
            String key = set.substring(0, Math.max(0, eq)).trim();
            String flagValue = byPath.get(key);
            if (flagValue != null && !flagValue.equals(set.substring(eq + 1).trim())) {
                throw new ConfigException("--set " + set, "a flag of this command also sets " + key + " (to " + flagValue
                        + "); give the value once, by the flag or by --set");
            }
        }
    }

    /** Whether a {@code --set} gives the workload its shape: its scenario, trace, clients or stages. */
    private static boolean shapesWorkload(String set) {
        String key = set.substring(0, Math.max(0, set.indexOf('='))).trim();
        for (String shape : List.of("scenario", "trace", "clients", "stages")) {
            String path = "workload." + shape;
            if (key.equals(path) || key.startsWith(path + ".") || key.startsWith(path + "[")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The kind's policy, where {@code tree} writes it ({@link PolicyKind#configPathIn}), as {@code {name, params}} (a
     * bare name, or the default when absent), so a param can be set.
     */
    private static void policyAsMapping(ObjectNode tree, PolicyKind<?> kind) {
        String[] path = kind.configPathIn(tree).split("\\.");
        JsonNode section = tree.get(path[0]);
        ObjectNode p = section instanceof ObjectNode o ? o : tree.putObject(path[0]);
        JsonNode v = p.get(path[1]);
        if (v == null || v.isNull()) {
            p.putObject(path[1]).put("name", kind.defaultSpec().name());
        } else if (v.isTextual()) {
            p.putObject(path[1]).put("name", v.asText());
        }
    }

    private static void add(List<String> out, String path, Object value) {
        if (value != null) {
            String v = value instanceof String s ? quote(s) : value.toString();
            out.add(path + "=" + v);
        }
    }

    /**
     * A catalog flag's value as YAML: a boolean or a number as such (in plain notation, so YAML reads {@code 1e-7} as a
     * number), anything else quoted; the setting's type then parses and checks it as it would the same value in a file.
     */
    static String flagValue(String raw) {
        String v = raw.strip();
        if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
            return v.toLowerCase(java.util.Locale.ROOT);
        }
        try {
            return new java.math.BigDecimal(v).toPlainString();
        } catch (NumberFormatException notANumber) {
            return quote(v);
        }
    }

    /** YAML-quotes a string so values like "on" or "1e3" stay strings. */
    private static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }
}
