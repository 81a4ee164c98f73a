package io.servesim.plan;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.SpecDecodeConfig;
import io.servesim.latency.KvCacheDtype;
import io.servesim.latency.Quantization;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code vllm serve} commands of a recommended candidate on the vLLM core, written to {@code vllm-serve.txt}. Each
 * carries the engine limits the simulation ran with under vLLM's own argument names ({@code --tensor-parallel-size},
 * {@code --max-num-seqs}, {@code --max-num-batched-tokens}, {@code --block-size}, {@code --gpu-memory-utilization},
 * prefix caching on or off, {@code --long-prefill-token-threshold}, {@code --max-model-len} and
 * {@code --num-gpu-blocks-override} when the config set them, {@code --quantization fp8} and {@code --kv-cache-dtype} for fp8 weights and KV cache, and
 * speculative decoding as {@code --speculative-config}).
 * A P/D deployment's instances carry vLLM's NIXL KV connector
 * ({@code --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'}) and a NIXL side-channel port
 * of their own ({@code VLLM_NIXL_SIDE_CHANNEL_PORT}, 5600 up, as instances sharing a host need), and a P/D proxy in
 * front of them, whose command the file gives with every prefill and decode port (vLLM's toy proxy,
 * {@code tests/v1/kv_connector/nixl_integration/toy_proxy_server.py}); all as vLLM's NixlConnector usage guide
 * (docs.vllm.ai/en/latest/features/nixl_connector_usage.html) runs them.
 */
final class VllmCommand extends LaunchCommand {
    static final VllmCommand INSTANCE = new VllmCommand();
    static final String FILE = "vllm-serve.txt";
    /** The head node's port the data-parallel ranks of other nodes join it on (the guide's example's). */
    private static final int DP_RPC_PORT = 13345;
    private static final String NIXL = "--kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}'";

    private VllmCommand() {
    }

    @Override
    String file() {
        return FILE;
    }

    @Override
    String engine() {
        return "vLLM";
    }

    @Override
    String pdNote() {
        return "exchanging KV through vLLM's NixlConnector; a P/D proxy (vLLM's disaggregated serving examples)"
                + " sends each request to a prefill instance, then to a decode instance.";
    }

    @Override
    String server(Instance in, EngineConfig e, JsonNode given) {
        boolean pd = !in.role().equals("replica");
        String nixlPort = pd ? " VLLM_NIXL_SIDE_CHANNEL_PORT=" + (5600 + in.slot()) : "";
        String serve = "CUDA_VISIBLE_DEVICES=" + in.devices() + nixlPort + " vllm serve " + in.model() + " --port " + in.port()
                + engineArgs(in, e, given) + (pd ? " " + NIXL : "");
        if (!in.spansNodes()) {
            return serve;
        }
        // vLLM's multi-node serving (docs/serving/parallelism_scaling.md): one Ray cluster over the nodes, the server on its head
        return spanningNote(in, "start a Ray cluster over them (ray start --head on node " + in.node()
                + ", ray start --address=<its address>:6379 on the others), then on node " + in.node() + ":\n" + serve
                + " --distributed-executor-backend ray");
    }

    /**
     * {@inheritDoc} As vLLM's data-parallel deployment guide runs them (docs/serving/data_parallel_deployment.md): on
     * one node a single {@code vllm serve --data-parallel-size N}; across nodes the head node's with
     * {@code --data-parallel-size-local}, {@code --data-parallel-address} and {@code --data-parallel-rpc-port}, each
     * other node's {@code --headless} with its {@code --data-parallel-start-rank}; with external load balancing a
     * server per rank ({@code --data-parallel-rank}, a port each). {@code --enable-expert-parallel} on every one when
     * the experts are sharded. {@code --max-num-seqs} and the other limits apply per rank, as the simulation ran them.
     */
    @Override
    List<String> dataParallel(Instance rank0, EngineConfig e, JsonNode given, Fleet.DataParallel dp, boolean internalLb) {
        int perNode = Math.max(1, rank0.gpusPerNode() / rank0.tp());
        int nodes = (dp.ranks() + perNode - 1) / perNode;
        String head = nodes > 1 ? " --data-parallel-address node0 --data-parallel-rpc-port " + DP_RPC_PORT : "";
        String tail = (dp.expertParallel() ? " --enable-expert-parallel" : "") + engineArgs(rank0, e, given);
        List<String> out = new ArrayList<>();
        if (!internalLb) {
            for (int r = 0; r < dp.ranks(); r++) {
                Instance rank = rank0.at(r, rank0.model(), rank0.tp(), "rank");
                if (r % perNode == 0) {
                    out.add("# node " + r / perNode + (r == 0 ? ", data-parallel ranks" : ""));
                }
                out.add("CUDA_VISIBLE_DEVICES=" + rank.devices() + " vllm serve " + rank0.model() + " --port " + rank.port()
                        + " --data-parallel-size " + dp.ranks() + " --data-parallel-rank " + r + head + tail);
            }
            return out;
        }
        for (int node = 0; node < nodes; node++) {
            int start = node * perNode;
            int local = Math.min(perNode, dp.ranks() - start);
            out.add("# node " + node + (node == 0 ? ", the API server and data-parallel ranks 0-" + (local - 1)
                    : ", data-parallel ranks " + start + "-" + (start + local - 1)));
            StringBuilder cmd = new StringBuilder("CUDA_VISIBLE_DEVICES=" + rank0.at(0, "", local * rank0.tp(), "rank").devices()
                    + " vllm serve " + rank0.model());
            cmd.append(node == 0 ? " --port " + rank0.port() : " --headless").append(" --data-parallel-size ").append(dp.ranks());
            if (nodes > 1) {
                cmd.append(" --data-parallel-size-local ").append(local);
                if (node > 0) {
                    cmd.append(" --data-parallel-start-rank ").append(start);
                }
            }
            out.add(cmd.append(head).append(tail).toString());
        }
        return out;
    }

    /** The engine arguments every server of a deployment gets, each with a leading space. */
    private static String engineArgs(Instance in, EngineConfig e, JsonNode given) {
        StringBuilder cmd = new StringBuilder(" --tensor-parallel-size " + in.tp() + " --max-num-seqs " + e.maxNumSeqs()
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
        if (in.quantization() != Quantization.AUTO) {
            cmd.append(" --quantization ").append(in.quantization().configName());
        }
        if (in.kvCache() != KvCacheDtype.AUTO) {
            cmd.append(" --kv-cache-dtype ").append(in.kvCache().configName());
        }
        if (e.speculative().enabled()) {
            cmd.append(" --speculative-config '").append(speculative(e.speculative())).append('\'');
        }
        return cmd.toString();
    }

    /**
     * vLLM's {@code --speculative-config} JSON for {@code s} ({@code SpeculativeConfig}, vllm/config/speculative.py):
     * a draft model by its Hub id, n-gram and MTP by method. An EAGLE drafter is a checkpoint trained for the target
     * model, which the config does not name: the JSON names the method and holds the place of its {@code model}.
     */
    static String speculative(SpecDecodeConfig s) {
        String k = "\"num_speculative_tokens\":" + s.k();
        return switch (s.method()) {
            case DRAFT -> "{\"model\":\"" + served(s.draftModel()) + "\"," + k + "}";
            case EAGLE -> "{\"method\":\"eagle\",\"model\":\"<the EAGLE head trained for the served model>\"," + k + "}";
            case MTP -> "{\"method\":\"mtp\"," + k + "}";
            case NGRAM -> "{\"method\":\"ngram\"," + k + "}";
        };
    }

    @Override
    List<String> proxy(int prefill, int decode, int tp, int gpusPerNode) {
        List<Instance> p = range(0, prefill, tp, "prefill", gpusPerNode);
        List<Instance> d = range(prefill, decode, tp, "decode", gpusPerNode);
        return List.of("# the P/D proxy (from a vLLM checkout), on port " + PROXY_PORT, "python tests/v1/kv_connector/nixl_integration/toy_proxy_server.py --port " + PROXY_PORT
                + " --prefiller-hosts " + join(p, true) + " --prefiller-ports " + join(p, false)
                + " --decoder-hosts " + join(d, true) + " --decoder-ports " + join(d, false));
    }

    private static String join(List<Instance> instances, boolean hosts) {
        List<String> out = new ArrayList<>();
        for (Instance i : instances) {
            out.add(hosts ? i.host() : String.valueOf(i.port()));
        }
        return String.join(" ", out);
    }
}
