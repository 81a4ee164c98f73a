package io.servesim.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.servesim.config.ConfigException;
import io.servesim.config.ConfigNode;
import io.servesim.engine.EngineConfig;
import io.servesim.latency.GpuCatalog;
import io.servesim.latency.GpuSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Binds a plan's {@code space:} and {@code prices:} and expands them into {@link Candidate}s: every GPU x TP x engine
 * setting x fleet, in that order (the fleet fastest: aggregated replica counts ascending, then P/D pairs, then
 * data-parallel rank counts ascending, each with the expert parallelism of {@code space.dp.ep} in its order). Each
 * candidate's price per GPU-hour is the plan's {@code prices.<gpu>}, else the GPU table's ({@code usd_per_gpu_hour}, with
 * its source); a GPU with neither is refused. Each engine setting is checked as the engine section it makes (the base's
 * {@code engine:} with its keys set), its problems named under {@code space.engine.<label>}.
 */
final class SpaceBinder {
    private SpaceBinder() {
    }

    /** The candidates of {@code root}'s space over {@code base}; problems go to {@code root}. */
    static List<Candidate> candidates(ConfigNode root, ObjectNode base, GpuCatalog catalog) {
        ConfigNode space = root.child("space");
        if (!space.present()) {
            declare(root);
            return List.of();
        }
        space.declare("gpus", "tp", "replicas", "pd", "dp", "engine");
        List<GpuSpec> gpus = gpus(space, catalog);
        JsonNode baseTp = base.path("deployment").path("tp");
        List<Integer> tps = space.has("tp") ? integers(space, "tp", 1, 64)
                : List.of(baseTp.isInt() && baseTp.asInt() >= 1 ? baseTp.asInt() : 1); // the base's TP, else vLLM's 1
        List<Integer> replicas = space.has("replicas") ? range(space, "replicas", 1, 4096) : List.of();
        ConfigNode pd = space.child("pd");
        List<Integer> prefill = pd.present() ? range(pd, "prefill", 1, 4096) : List.of();
        List<Integer> decode = pd.present() ? range(pd, "decode", 1, 4096) : List.of();
        if (pd.present()) {
            pd.finish();
        }
        ConfigNode dp = space.child("dp");
        dp.declare("ranks", "ep");
        List<Integer> ranks = dp.has("ranks") ? range(dp, "ranks", 2, 1024) : List.of();
        List<Boolean> ep = dp.present() ? expertParallel(dp) : List.of();
        if (dp.present()) {
            if (!dp.has("ranks")) {
                dp.problem(dp.pathOf("ranks"), "required: the data-parallel rank counts, {min, max} or a list, each at"
                        + " least 2 (one rank is an aggregated replica)");
            }
            dp.finish();
        }
        if (!space.has("replicas") && !pd.present() && !dp.present()) {
            space.problem(space.pathOf("replicas"), "required (or pd: {prefill, decode}, or dp: {ranks, ep}): the"
                    + " aggregated replica counts, {min, max} or a list");
        }
        Map<String, Map<String, JsonNode>> engines = engines(space, base);
        space.finish();
        Map<String, GpuSpec.Price> prices = prices(root, gpus, catalog);
        List<Candidate> out = new ArrayList<>();
        BaseDeployment given = new BaseDeployment(base.path("deployment"));
        for (GpuSpec gpu : gpus) {
            GpuSpec.Price price = prices.getOrDefault(gpu.name(), GpuSpec.Price.NONE);
            for (int tp : tps) {
                for (Map.Entry<String, Map<String, JsonNode>> engine : engines.entrySet()) {
                    List<Fleet> fleets = new ArrayList<>();
                    replicas.forEach(n -> fleets.add(new Fleet.Aggregated(n)));
                    for (int p : prefill) {
                        decode.forEach(d -> fleets.add(new Fleet.Disaggregated(p, d)));
                    }
                    for (int n : ranks) {
                        ep.forEach(e -> fleets.add(new Fleet.DataParallel(n, e)));
                    }
                    for (Fleet fleet : fleets) {
                        Map<String, JsonNode> set = new LinkedHashMap<>();
                        set.put("deployment.hardware", TextNode.valueOf(gpu.name()));
                        if (space.has("tp")) { // else the base's own (or the default) TP, whose problems are the base's
                            set.put("deployment.tp", IntNode.valueOf(tp));
                        }
                        fleet(set, fleet, given);
                        engine.getValue().forEach((k, v) -> set.put("engine." + k, v));
                        String id = gpu.name() + "-tp" + tp + "-" + fleet.label() + "-" + engine.getKey();
                        out.add(new Candidate(out.size(), id, gpu.name(), tp, fleet, engine.getKey(), set,
                                price.usdPerGpuHour(), price.source()));
                    }
                }
            }
        }
        return out;
    }

    /**
     * Declares {@code space} and {@code prices} valid at the plan's top level when the space is not bound (no base
     * config to bind it over, or no space), and says the space is required when it is missing.
     */
    static void declare(ConfigNode root) {
        root.declare("space", "prices");
        if (!root.has("space")) {
            root.problem("space", "required: {gpus: [...], tp: [...], replicas: {min, max}, engine: {label: {...}}}");
        }
    }

    /** Which of the deployment keys a fleet sets the base config gives. */
    private record BaseDeployment(boolean pd, boolean instances, boolean dp, boolean ep, boolean epBalancedness) {
        BaseDeployment(JsonNode d) {
            this(d.has("pd") || d.has("architecture"), d.has("instances"), d.has("dp"), d.has("ep"),
                    d.has("ep_balancedness"));
        }
    }

    /**
     * The paths a fleet sets: instances for one pool; both pools; the ranks and expert parallelism of a data-parallel
     * deployment. What the base gives for another kind of fleet is cleared: its architecture and pd, its instances,
     * its dp and ep, and its ep_balancedness where the experts are not sharded (a property of the model's gate that
     * only an expert-parallel deployment feels).
     */
    private static void fleet(Map<String, JsonNode> set, Fleet fleet, BaseDeployment base) {
        if (base.pd() && !(fleet instanceof Fleet.Disaggregated)) {
            set.put("deployment.architecture", TextNode.valueOf("aggregated"));
            set.put("deployment.pd", NullNode.getInstance());
        }
        if (!(fleet instanceof Fleet.DataParallel dp && dp.expertParallel())) {
            clear(set, base.ep(), "deployment.ep");
            clear(set, base.epBalancedness(), "deployment.ep_balancedness");
        }
        if (fleet instanceof Fleet.Aggregated a) {
            clear(set, base.dp(), "deployment.dp");
            set.put("deployment.instances", IntNode.valueOf(a.replicas()));
        } else if (fleet instanceof Fleet.Disaggregated d) {
            clear(set, base.dp(), "deployment.dp");
            set.put("deployment.architecture", TextNode.valueOf("pd"));
            clear(set, base.instances(), "deployment.instances");
            set.put("deployment.pd.prefill.replicas", IntNode.valueOf(d.prefill()));
            set.put("deployment.pd.decode.replicas", IntNode.valueOf(d.decode()));
        } else if (fleet instanceof Fleet.DataParallel dp) {
            clear(set, base.instances(), "deployment.instances");
            set.put("deployment.dp", IntNode.valueOf(dp.ranks()));
            if (dp.expertParallel()) {
                set.put("deployment.ep", BooleanNode.TRUE);
            }
        }
    }

    private static void clear(Map<String, JsonNode> set, boolean given, String path) {
        if (given) {
            set.put(path, NullNode.getInstance());
        }
    }

    /** {@code space.dp.ep}: true, false (the default) or a list of both, each a fleet of its own. */
    private static List<Boolean> expertParallel(ConfigNode dp) {
        JsonNode v = dp.rawValue("ep");
        if (v == null) {
            return List.of(false);
        }
        List<Boolean> out = new ArrayList<>();
        if (v.isBoolean()) {
            out.add(v.asBoolean());
        } else if (v.isArray() && !v.isEmpty()) {
            for (int i = 0; i < v.size(); i++) {
                String at = dp.pathOf("ep") + "[" + i + "]";
                if (!v.get(i).isBoolean()) {
                    dp.problem(at, "must be true or false, got " + v.get(i));
                } else if (out.contains(v.get(i).asBoolean())) {
                    dp.problem(at, "duplicate value " + v.get(i).asBoolean());
                } else {
                    out.add(v.get(i).asBoolean());
                }
            }
        } else {
            dp.problem(dp.pathOf("ep"), "must be true (the experts of a MoE model sharded over the ranks), false (the"
                    + " default) or [false, true] (both), got " + v);
        }
        return out;
    }

    private static List<GpuSpec> gpus(ConfigNode space, GpuCatalog catalog) {
        List<GpuSpec> out = new ArrayList<>();
        JsonNode g = space.rawValue("gpus");
        if (g == null || !g.isArray() || g.isEmpty()) {
            space.problem(space.pathOf("gpus"), (g == null ? "required: " : g.isArray() ? "must not be empty: "
                    : "must be a list: ") + "a list of GPUs, e.g. [H100, A100-80GB]; known: " + String.join(", ", catalog.names()));
            return out;
        }
        for (int i = 0; i < g.size(); i++) {
            String at = space.pathOf("gpus") + "[" + i + "]";
            Optional<GpuSpec> gpu = g.get(i).isTextual() ? catalog.find(g.get(i).asText()) : Optional.empty();
            if (gpu.isEmpty() && space.hasProblemUnder("base.deployment.gpus")) {
                space.problem(at, "unknown GPU '" + g.get(i).asText() + "': the base's deployment.gpus file, whose rows would"
                        + " add it, was refused (above)");
            } else if (gpu.isEmpty()) {
                space.problem(at, "unknown GPU '" + g.get(i).asText() + "'; known: " + String.join(", ", catalog.names())
                        + " (add one with the base's deployment.gpus: FILE)");
            } else if (out.contains(gpu.get())) {
                space.problem(at, "'" + g.get(i).asText() + "' is " + gpu.get().name() + " again");
            } else {
                out.add(gpu.get());
            }
        }
        return out;
    }

    /** A list of distinct integers in [min, max] under {@code key}. */
    private static List<Integer> integers(ConfigNode node, String key, int min, int max) {
        JsonNode v = node.rawValue(key);
        List<Integer> out = new ArrayList<>();
        if (!v.isArray() || v.isEmpty()) {
            node.problem(node.pathOf(key), "must be a non-empty list of integers in [" + min + ", " + max + "]");
            return out;
        }
        for (int i = 0; i < v.size(); i++) {
            JsonNode e = v.get(i);
            String at = node.pathOf(key) + "[" + i + "]";
            if (!e.isIntegralNumber() || e.asLong() < min || e.asLong() > max) {
                node.problem(at, "must be an integer in [" + min + ", " + max + "], got " + e);
            } else if (out.contains(e.asInt())) {
                node.problem(at, "duplicate value " + e.asInt());
            } else {
                out.add(e.asInt());
            }
        }
        return out;
    }

    /** {@code {min, max}} (every integer between, inclusive) or a list, ascending. */
    private static List<Integer> range(ConfigNode node, String key, int min, int max) {
        JsonNode v = node.rawValue(key);
        if (v != null && v.isArray()) {
            return integers(node, key, min, max).stream().sorted().toList();
        }
        ConfigNode r = node.child(key);
        int lo = r.intValue("min", min, min, max);
        int hi = r.intValue("max", lo, min, max);
        if (!r.has("max")) {
            r.problem(r.pathOf("max"), "required: the largest count (with min, default " + min + ")");
        } else if (hi < lo) {
            r.problem(r.pathOf("max"), "must be at least min (" + lo + "), got " + hi);
        }
        r.finish();
        List<Integer> out = new ArrayList<>();
        for (int n = lo; n <= hi; n++) {
            out.add(n);
        }
        return out;
    }

    /** {@code space.engine}: label to engine keys (default one setting, {@code default}, the base's own). */
    private static Map<String, Map<String, JsonNode>> engines(ConfigNode space, ObjectNode base) {
        Map<String, Map<String, JsonNode>> out = new LinkedHashMap<>();
        JsonNode e = space.rawValue("engine");
        if (e == null) {
            out.put("default", Map.of());
            return out;
        }
        if (!e.isObject() || e.isEmpty()) {
            space.problem(space.pathOf("engine"), "must be a mapping of label to engine keys, e.g. {default: {},"
                    + " big-batch: {max_num_batched_tokens: 8192}}");
            return out;
        }
        Set<String> problems = new LinkedHashSet<>();
        e.fields().forEachRemaining(f -> {
            String at = space.pathOf("engine") + "." + f.getKey();
            if (!f.getKey().matches("[A-Za-z0-9][A-Za-z0-9_.-]*")) {
                space.problem(at, "a label must be letters, digits, '_', '.' or '-' (it names candidates), got '" + f.getKey() + "'");
                return;
            }
            if (!f.getValue().isObject()) {
                space.problem(at, "must be a mapping of engine keys (vLLM's names), e.g. {max_num_seqs: 128}; {} for the base's");
                return;
            }
            Map<String, JsonNode> keys = new LinkedHashMap<>();
            f.getValue().fields().forEachRemaining(k -> keys.put(k.getKey(), k.getValue()));
            problems.addAll(checkEngine(base, at, keys));
            out.put(f.getKey(), keys);
        });
        problems.forEach(p -> {
            int colon = p.indexOf('\u0000');
            space.problem(p.substring(0, colon), p.substring(colon + 1));
        });
        return out;
    }

    /**
     * The problems of the engine section {@code keys} make over the base's, as {@code path\0message}: under
     * {@code at} for a key the setting gives, under {@code base.engine} for one of the base's.
     */
    private static List<String> checkEngine(ObjectNode base, String at, Map<String, JsonNode> keys) {
        ObjectNode engine = base.path("engine").isObject() ? ((ObjectNode) base.get("engine")).deepCopy()
                : base.objectNode();
        keys.forEach(engine::set);
        ConfigNode node = ConfigNode.root(engine);
        EngineConfig.bind(node);
        List<String> out = new ArrayList<>();
        try {
            node.throwIfProblems();
        } catch (ConfigException ex) {
            for (ConfigException.Problem p : ex.problems()) {
                String top = p.path().split("[.\\[]", 2)[0];
                out.add((keys.containsKey(top) ? at : "base.engine") + "." + p.path() + '\u0000' + p.message());
            }
        }
        return out;
    }

    /** Each GPU's price: the plan's {@code prices}, else the table's; a GPU with neither is a problem at its entry. */
    private static Map<String, GpuSpec.Price> prices(ConfigNode root, List<GpuSpec> gpus, GpuCatalog catalog) {
        Map<String, GpuSpec.Price> out = new LinkedHashMap<>();
        ConfigNode p = root.child("prices");
        Set<String> names = new TreeSet<>();
        gpus.forEach(g -> names.add(g.name()));
        Set<String> refused = new HashSet<>();
        boolean gpusBad = root.hasProblemUnder("space.gpus");
        if (p.present()) {
            p.raw().fields().forEachRemaining(f -> {
                String at = p.pathOf(f.getKey());
                p.rawValue(f.getKey());
                Optional<GpuSpec> named = catalog.find(f.getKey());
                Optional<GpuSpec> gpu = named.filter(gpus::contains);
                if (gpu.isEmpty()) {
                    // a GPU of a bad space.gpus (or of a refused GPU file) is judged once that is fixed
                    if (!(gpusBad && (named.isPresent() || root.hasProblemUnder("base.deployment.gpus")))) {
                        p.problem(at, "not a GPU of space.gpus (" + String.join(", ", names) + ")");
                    }
                } else if (!f.getValue().isNumber() || !(f.getValue().asDouble() > 0 && f.getValue().asDouble() <= 10_000)) {
                    p.problem(at, "must be a price per GPU-hour in US dollars in (0, 10000], as a GPU row's usd_per_gpu_hour"
                            + " (no GPU rents for more than $10,000 an hour), got " + f.getValue());
                    refused.add(gpu.get().name());
                } else {
                    out.put(gpu.get().name(), new GpuSpec.Price(f.getValue().asDouble(), "plan file: prices." + f.getKey()));
                }
            });
        }
        p.finish();
        JsonNode listed = root.raw().path("space").path("gpus");
        for (GpuSpec g : gpus) {
            if (!out.containsKey(g.name()) && !refused.contains(g.name())) {
                if (g.price().known()) {
                    out.put(g.name(), g.price());
                } else {
                    int i = 0;
                    while (i < listed.size() && !catalog.find(listed.get(i).asText()).map(g::equals).orElse(false)) {
                        i++;
                    }
                    root.problem("space.gpus[" + i + "]", "no price for " + g.name() + ": the GPU table has none (it prices "
                            + String.join(", ", catalog.pricedNames()) + "); give one in prices: {" + g.name()
                            + ": USD per GPU-hour}");
                }
            }
        }
        return out;
    }
}
