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
        StringBuilder cmd = new StringBuilder("CUDA_VISIBLE_DEVICES=" + in.devices() + nixlPort + " vllm serve " + in.model()
                + " --port " + in.port() + " --tensor-parallel-size " + in.tp() + " --max-num-seqs " + e.maxNumSeqs()
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
        if (pd) {
            cmd.append(' ').append(NIXL);
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
    List<String> proxy(int prefill, int decode, int tp) {
        List<Instance> p = range(0, prefill, tp, "prefill");
        List<Instance> d = range(prefill, decode, tp, "decode");
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
