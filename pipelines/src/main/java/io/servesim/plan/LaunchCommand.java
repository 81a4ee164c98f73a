package io.servesim.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.Overrides;
import io.servesim.engine.EngineConfig;
import io.servesim.latency.KvCacheDtype;
import io.servesim.latency.ModelCatalog;
import io.servesim.latency.Quantization;
import io.servesim.run.PolicyKind;
import io.servesim.run.RunPlan;
import io.servesim.run.SimConfigLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The commands that deploy a recommended candidate on the engine the simulation ran: one server per engine instance
 * ({@link VllmCommand} for {@code engine.kind: vllm}, {@link SglangCommand} for {@code sglang}), each with the engine
 * settings the simulation used under the engine's own argument names, laid out as many GPUs to a node as the GPU's row
 * holds ({@code gpus_per_node}; a tensor-parallel group larger than a node on as many whole nodes as it needs), each instance on its
 * own port from 8000 up and its own GPUs ({@code CUDA_VISIBLE_DEVICES}); a P/D deployment adds the engine's P/D proxy in
 * front of its prefill and decode instances, on port 8192; a data-parallel deployment is one server balancing over its
 * ranks (or a server per rank behind a router, when the config routes by another policy). A router in front of the
 * replicas (the config's {@code policies.routing}) is not the engine's: the file says which one was simulated.
 */
abstract sealed class LaunchCommand permits VllmCommand, SglangCommand {
    static final int PROXY_PORT = 8192;

    /**
     * The commands of the engine core candidate {@code c} of {@code plan} runs: its {@code engine.kind}, from the base
     * config or the candidate's engine variant ({@code space.engine}).
     */
    static LaunchCommand of(PlanSpec plan, Candidate c) {
        ObjectNode tree = plan.base().deepCopy();
        c.assignments().forEach((path, value) -> Overrides.set(tree, path, value.deepCopy()));
        return "sglang".equals(tree.path("engine").path("kind").asText()) ? SglangCommand.INSTANCE : VllmCommand.INSTANCE;
    }

    /** The file's name in the plan's folder. */
    abstract String file();

    /** The engine's name in the file's header ({@code vLLM}). */
    abstract String engine();

    /** How the P/D instances exchange KV and who joins them, for the header. */
    abstract String pdNote();

    /**
     * The command line of one instance: {@code role} is {@code replica}, {@code prefill} or {@code decode};
     * {@code given} the config's {@code engine:} section as written.
     */
    abstract String server(Instance instance, EngineConfig e, JsonNode given);

    /**
     * The lines of one data-parallel deployment of {@code dp.ranks()} ranks like {@code rank0}: with
     * {@code internalLb} its API server balancing over them, else a server per rank behind the simulated router.
     */
    abstract List<String> dataParallel(Instance rank0, EngineConfig e, JsonNode given, Fleet.DataParallel dp,
                                       boolean internalLb);

    /**
     * The P/D proxy's lines (a comment saying where it comes from, then its command), joining prefill instances
     * {@code [0, prefill)} and the {@code decode} ones after them.
     */
    abstract List<String> proxy(int prefill, int decode, int tp, int gpusPerNode);

    /**
     * One engine instance: its slot (port 8000 + slot), model argument, TP degree, role, KV cache width and weights, on
     * nodes of {@code gpusPerNode} GPUs.
     */
    record Instance(int slot, String model, int tp, String role, KvCacheDtype kvCache, Quantization quantization,
                    int gpusPerNode) {
        int port() {
            return 8000 + slot;
        }

        /** Whether its tensor-parallel group spans nodes. */
        boolean spansNodes() {
            return tp > gpusPerNode;
        }

        /** Nodes its tensor-parallel group spans (1 within a node). */
        int nodes() {
            return (tp + gpusPerNode - 1) / gpusPerNode;
        }

        /** The GPUs of the instance on its node (on each of its nodes, when it spans several: all of them). */
        String devices() {
            List<String> out = new ArrayList<>();
            for (int g = 0; g < Math.min(tp, gpusPerNode); g++) {
                out.add(String.valueOf(spansNodes() ? g : (slot * tp + g) % gpusPerNode));
            }
            return String.join(",", out);
        }

        /** The first node of the instance. */
        int node() {
            return spansNodes() ? slot * nodes() : slot * tp / gpusPerNode;
        }

        /** The host of the instance (its first node's): localhost on node 0, {@code node<N>} on the others. */
        String host() {
            return node() == 0 ? "localhost" : "node" + node();
        }

        /** This instance in another slot, with another role, model or TP degree. */
        Instance at(int otherSlot, String otherModel, int otherTp, String otherRole) {
            return new Instance(otherSlot, otherModel, otherTp, otherRole, kvCache, quantization, gpusPerNode);
        }
    }

    /**
     * The comment before an instance whose tensor-parallel group spans nodes: the engine runs one process group over them
     * ({@code extra} says how).
     */
    static String spanningNote(Instance in, String extra) {
        return "# TP " + in.tp() + " spans nodes " + in.node() + "-" + (in.node() + in.nodes() - 1) + " (" + in.gpusPerNode()
                + " GPUs each): " + extra;
    }

    /** The file's text for {@code c} of {@code plan}. */
    final String text(PlanSpec plan, Candidate c, double rateRps, int requests) {
        var tree = RecommendedConfig.tree(plan, c, rateRps, requests, plan.baseDir());
        localModelsAbsolute(tree, plan.baseDir());
        RunPlan run = RunPlan.prepare(SimConfigLoader.bind(tree, plan.baseDir()));
        String model = served(tree.path("deployment").path("model").asText());
        JsonNode engineTree = tree.path("engine");
        KvCacheDtype kvCache = KvCacheDtype.find(tree.path("deployment").path("kv_cache_dtype").asText("auto"))
                .orElse(KvCacheDtype.AUTO);
        Quantization quantization = Quantization.find(tree.path("deployment").path("quantization").asText("auto"))
                .orElse(Quantization.AUTO);
        String routing = run.setup().policies().spec(PolicyKind.ROUTING).name();
        int perNode = run.config().latency().gpus().find(c.gpu()).map(g -> g.interconnect().gpusPerNode()).orElse(8);
        StringBuilder out = new StringBuilder();
        out.append("# servesim ").append(plan.capacityOnly() ? "capacity" : "plan " + plan.name()).append(": ")
                .append(c.id()).append(", ").append(c.gpus()).append(" x ").append(c.gpu()).append(" (TP ").append(c.tp())
                .append(")\n# ");
        List<String> lines = new ArrayList<>();
        if (c.fleet() instanceof Fleet.DataParallel dp) {
            boolean internal = SimConfigLoader.DP_LOAD_BALANCER.equals(routing);
            out.append("One ").append(engine()).append(" data-parallel deployment of ").append(dp.ranks()).append(" ranks")
                    .append(dp.expertParallel() ? ", its experts sharded over them" : "").append(", ").append(perNode)
                    .append(" GPUs to a node. ").append(internal
                            ? "Its API server spreads the requests over the ranks (vLLM's internal DP load balancer; simulated: "
                            : "A router in front of a server per rank spreads the requests (vLLM's external DP load"
                                    + " balancing; simulated: ").append(routing).append(").\n");
            lines.addAll(dataParallel(new Instance(0, model, c.tp(), "rank", kvCache, quantization, perNode), run.engineConfig(),
                    engineTree, dp, internal));
            lines.forEach(l -> out.append(l).append('\n'));
            return out.toString();
        }
        out.append("One ").append(engine()).append(" server per engine instance, ").append(perNode)
                .append(" GPUs to a node. ");
        if (c.fleet() instanceof Fleet.Disaggregated d) {
            var pd = run.setup().pd();
            out.append("P/D: ").append(d.prefill()).append(" prefill and ").append(d.decode()).append(" decode instances ")
                    .append(pdNote()).append('\n');
            lines.addAll(instances(new Instance(0, model, c.tp(), "prefill", kvCache, quantization, perNode), pd.prefill().engine(), engineTree,
                    d.prefill()));
            lines.addAll(instances(new Instance(d.prefill(), model, c.tp(), "decode", kvCache, quantization, perNode), pd.decode().engine(),
                    engineTree, d.decode()));
            lines.addAll(proxy(d.prefill(), d.decode(), c.tp(), perNode));
        } else {
            out.append(c.fleet().instances() == 1 ? "One replica" : "A router in front of the " + c.fleet().instances()
                    + " replicas spreads the requests (simulated: " + routing + ")").append(".\n");
            lines.addAll(instances(new Instance(0, model, c.tp(), "replica", kvCache, quantization, perNode), run.engineConfig(), engineTree,
                    c.fleet().instances()));
        }
        lines.forEach(l -> out.append(l).append('\n'));
        return out.toString();
    }

    /**
     * Rewrites a local model ({@code deployment.model}, {@code engine.speculative.draft_model}: a config.json path,
     * relative to the plan) as an absolute path: the commands name the folder to serve wherever they are run from.
     */
    private static void localModelsAbsolute(ObjectNode tree, Path baseDir) {
        for (String[] at : new String[][] {{"deployment", "model"}, {"engine", "speculative", "draft_model"}}) {
            JsonNode parent = tree;
            for (int i = 0; i < at.length - 1; i++) {
                parent = parent.path(at[i]);
            }
            String key = at[at.length - 1];
            if (parent instanceof ObjectNode o && o.path(key).asText("").endsWith(".json")) {
                o.put(key, baseDir.resolve(o.get(key).asText()).toAbsolutePath().normalize().toString());
            }
        }
    }

    /**
     * The model argument of the server for the config's {@code deployment.model}: a bundled model's Hub id as the Hub
     * spells it (the config may write it in any case, or as the file stem), an alias or an unknown id as written, and
     * for a config.json path the folder holding it (both engines load a local model from its folder).
     */
    static String served(String model) {
        if (model.endsWith(".json")) {
            Path parent = Path.of(model).getParent();
            return parent == null ? "." : parent.toString();
        }
        return ModelCatalog.builtIn().find(model)
                .filter(e -> e.id().equalsIgnoreCase(model) || e.file().equalsIgnoreCase(model + ".config.json"))
                .flatMap(ModelCatalog.Entry::hubId).orElse(model);
    }

    /** Instances {@code [first, first + count)} of {@code role}, as the proxy addresses them (no model). */
    static List<Instance> range(int first, int count, int tp, String role, int gpusPerNode) {
        List<Instance> out = new ArrayList<>();
        for (int slot = first; slot < first + count; slot++) {
            out.add(new Instance(slot, "", tp, role, KvCacheDtype.AUTO, Quantization.AUTO, gpusPerNode));
        }
        return out;
    }

    /** {@code count} instances like {@code first}, in the slots from its own. */
    private List<String> instances(Instance first, EngineConfig e, JsonNode given, int count) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Instance instance = first.at(first.slot() + i, first.model(), first.tp(), first.role());
            int gpu0 = instance.slot() * first.tp();
            if (instance.spansNodes() || gpu0 % first.gpusPerNode() == 0 || i == 0) {
                out.add("# node " + instance.node() + (i == 0 ? ", " + first.role() + " instances" : ""));
            }
            out.add(server(instance, e, given));
        }
        return out;
    }
}
