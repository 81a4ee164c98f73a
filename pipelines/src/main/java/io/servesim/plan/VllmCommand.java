package io.servesim.plan;

import io.servesim.engine.EngineConfig;
import io.servesim.latency.ModelCatalog;
import io.servesim.run.RunPlan;
import io.servesim.run.SimConfigLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code vllm serve} commands that deploy a recommended candidate, one per engine instance, written to
 * {@code vllm-serve.txt}. Each carries the engine limits the simulation ran with under vLLM's own argument names
 * ({@code --tensor-parallel-size}, {@code --max-num-seqs}, {@code --max-num-batched-tokens}, {@code --block-size},
 * {@code --gpu-memory-utilization}, prefix caching on or off, {@code --long-prefill-token-threshold},
 * {@code --max-model-len} and {@code --num-gpu-blocks-override} when the config set them); instances are laid out 8 GPUs
 * to a node, each on its own port. A P/D deployment's instances carry vLLM's NIXL KV connector
 * ({@code --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'}) and a NIXL side-channel port
 * of their own ({@code VLLM_NIXL_SIDE_CHANNEL_PORT}, 5600 up, as instances sharing a host need), and a P/D proxy in
 * front of them, whose command the file gives with every prefill and decode port (vLLM's toy proxy,
 * {@code tests/v1/kv_connector/nixl_integration/toy_proxy_server.py}); all as vLLM's NixlConnector usage guide
 * (docs.vllm.ai/en/latest/features/nixl_connector_usage.html) runs them. A router in
 * front of the replicas (the config's {@code policies.routing}) is not vLLM's: the file says which one was simulated.
 */
final class VllmCommand {
    private static final int GPUS_PER_NODE = 8;
    private static final String NIXL = "--kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}'";

    private VllmCommand() {
    }

    /** The file's text for {@code c} of {@code plan}. */
    static String text(PlanSpec plan, Candidate c, double rateRps, int requests) {
        var tree = RecommendedConfig.tree(plan, c, rateRps, requests, plan.baseDir());
        RunPlan run = RunPlan.prepare(SimConfigLoader.bind(tree, plan.baseDir()));
        String model = served(tree.path("deployment").path("model").asText());
        var engineTree = tree.path("engine");
        String routing = tree.path("policies").path("routing").isTextual() ? tree.path("policies").path("routing").asText()
                : tree.path("policies").path("routing").path("name").asText("round-robin");
        StringBuilder out = new StringBuilder();
        out.append("# servesim ").append(plan.capacityOnly() ? "capacity" : "plan " + plan.name()).append(": ")
                .append(c.id()).append(", ").append(c.gpus()).append(" x ").append(c.gpu()).append(" (TP ").append(c.tp())
                .append(")\n# One vLLM server per engine instance, ").append(GPUS_PER_NODE).append(" GPUs to a node. ");
        List<String> lines = new ArrayList<>();
        if (c.fleet() instanceof Fleet.Disaggregated d) {
            var pd = run.setup().pd();
            out.append("P/D: ").append(d.prefill()).append(" prefill and ").append(d.decode()).append(" decode instances")
                    .append(" exchanging KV through vLLM's NixlConnector; a P/D proxy (vLLM's disaggregated serving examples)")
                    .append(" sends each request to a prefill instance, then to a decode instance.\n");
            lines.addAll(instances(model, c.tp(), pd.prefill().engine(), engineTree, d.prefill(), 0, "prefill", NIXL));
            lines.addAll(instances(model, c.tp(), pd.decode().engine(), engineTree, d.decode(), d.prefill(), "decode", NIXL));
            lines.add("# the P/D proxy (from a vLLM checkout), on port 8192");
            lines.add("python tests/v1/kv_connector/nixl_integration/toy_proxy_server.py --port 8192 --prefiller-hosts "
                    + hosts(0, d.prefill(), c.tp()) + " --prefiller-ports " + ports(0, d.prefill()) + " --decoder-hosts "
                    + hosts(d.prefill(), d.decode(), c.tp()) + " --decoder-ports " + ports(d.prefill(), d.decode()));
        } else {
            out.append(c.fleet().instances() == 1 ? "One replica" : "A router in front of the " + c.fleet().instances()
                    + " replicas spreads the requests (simulated: " + routing + ")").append(".\n");
            lines.addAll(instances(model, c.tp(), run.engineConfig(), engineTree, c.fleet().instances(), 0, "replica", ""));
        }
        lines.forEach(l -> out.append(l).append('\n'));
        return out.toString();
    }

    /**
     * The model argument of {@code vllm serve} for the config's {@code deployment.model}: a bundled model's Hub id as
     * the Hub spells it (the config may write it in any case, or as the file stem), an alias or an unknown id as
     * written, and for a config.json path the folder holding it (vLLM loads a local model from its folder).
     */
    static String served(String model) {
        if (model.endsWith(".json")) {
            java.nio.file.Path parent = java.nio.file.Path.of(model).getParent();
            return parent == null ? "." : parent.toString();
        }
        return ModelCatalog.builtIn().find(model)
                .filter(e -> e.id().equalsIgnoreCase(model) || e.file().equalsIgnoreCase(model + ".config.json"))
                .flatMap(ModelCatalog.Entry::hubId).orElse(model);
    }

    /** The hosts of instances {@code [first, first + count)}, one per instance ({@code node0}, ...; localhost on one node). */
    private static String hosts(int first, int count, int tp) {
        List<String> out = new ArrayList<>();
        for (int slot = first; slot < first + count; slot++) {
            int node = slot * tp / GPUS_PER_NODE;
            out.add(node == 0 ? "localhost" : "node" + node);
        }
        return String.join(" ", out);
    }

    private static String ports(int first, int count) {
        List<String> out = new ArrayList<>();
        for (int slot = first; slot < first + count; slot++) {
            out.add(String.valueOf(8000 + slot));
        }
        return String.join(" ", out);
    }

    private static List<String> instances(String model, int tp, EngineConfig e, com.fasterxml.jackson.databind.JsonNode given,
                                          int count, int first, String role, String extra) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int slot = first + i;
            int gpu0 = slot * tp;
            if (gpu0 % GPUS_PER_NODE == 0 || i == 0) {
                out.add("# node " + gpu0 / GPUS_PER_NODE + (i == 0 ? ", " + role + " instances" : ""));
            }
            List<String> devices = new ArrayList<>();
            for (int g = 0; g < tp; g++) {
                devices.add(String.valueOf((gpu0 + g) % GPUS_PER_NODE));
            }
            String nixlPort = extra.isEmpty() ? "" : " VLLM_NIXL_SIDE_CHANNEL_PORT=" + (5600 + slot);
            StringBuilder cmd = new StringBuilder("CUDA_VISIBLE_DEVICES=" + String.join(",", devices) + nixlPort + " vllm serve " + model
                    + " --port " + (8000 + slot) + " --tensor-parallel-size " + tp + " --max-num-seqs " + e.maxNumSeqs()
                    + " --max-num-batched-tokens " + e.maxNumBatchedTokens() + " --block-size " + e.blockSizeTokens()
                    + " --gpu-memory-utilization " + String.format(Locale.ROOT, "%.2f", e.gpuMemoryUtilization())
                    + (e.prefixCaching() ? " --enable-prefix-caching" : " --no-enable-prefix-caching"));
            if (e.longPrefillTokenThreshold() > 0) {
                cmd.append(" --long-prefill-token-threshold ").append(e.longPrefillTokenThreshold());
            }
            if (given.has("max_model_len")) {
                cmd.append(" --max-model-len ").append(e.maxModelLen());
            }
            if (given.has("total_kv_blocks")) {
                cmd.append(" --num-gpu-blocks-override ").append(e.totalKvBlocks());
            }
            if (!extra.isEmpty()) {
                cmd.append(' ').append(extra);
            }
            out.add(cmd.toString());
        }
        return out;
    }
}
