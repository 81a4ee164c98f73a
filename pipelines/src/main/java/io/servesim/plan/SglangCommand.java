package io.servesim.plan;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.SglangConfig;
import io.servesim.latency.KvCacheDtype;
import io.servesim.latency.Quantization;
import java.util.List;
import java.util.Locale;

/**
 * The {@code python -m sglang.launch_server} commands of a recommended candidate on the SGLang core
 * ({@code engine.kind: sglang}), written to {@code sglang-launch.txt}, with the settings the simulation ran under
 * SGLang's server argument names (sgl-project/sglang {@code docs/advanced_features/server_arguments.md},
 * {@code python/sglang/srt/server_args.py}): {@code --tp-size}, {@code --max-running-requests} ({@code max_num_seqs}),
 * {@code --page-size}, {@code --chunked-prefill-size}, {@code --max-prefill-tokens}, {@code --schedule-policy},
 * {@code --schedule-conservativeness}, {@code --mem-fraction-static} (the share of GPU memory for weights and the KV
 * pool, as {@code gpu_memory_utilization} is here), {@code --disable-radix-cache} when prefix caching is off, and
 * {@code --context-length} and {@code --max-total-tokens} (pages x page size) when the config set them,
 * {@code --quantization fp8} and {@code --kv-cache-dtype} for fp8 weights and KV cache. The
 * {@code new_token_ratio} constants are environment variables in SGLang ({@code SGLANG_INIT_NEW_TOKEN_RATIO},
 * {@code SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR}, {@code SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS}, {@code srt/environ.py}):
 * set on the command when they differ from SGLang's defaults. A P/D deployment runs its instances with
 * {@code --disaggregation-mode prefill|decode} over NIXL ({@code --disaggregation-transfer-backend nixl}), each
 * prefill instance with a bootstrap port of its own (8998 up, SGLang's default first), and SGLang's router in P/D
 * mode in front, as SGLang's PD disaggregation guide ({@code docs/advanced_features/pd_disaggregation.md}) runs them.
 */
final class SglangCommand extends LaunchCommand {
    static final SglangCommand INSTANCE = new SglangCommand();
    static final String FILE = "sglang-launch.txt";
    private static final int BOOTSTRAP_PORT = 8998;
    /** The port a multi-node instance's first node serves its process group on (SGLang's --dist-init-addr; one per instance). */
    private static final int DIST_INIT_PORT = 5000;

    private SglangCommand() {
    }

    @Override
    String file() {
        return FILE;
    }

    @Override
    String engine() {
        return "SGLang";
    }

    @Override
    String pdNote() {
        return "exchanging KV over NIXL; SGLang's router in P/D mode sends each request to a prefill and a decode instance.";
    }

    @Override
    String server(Instance in, EngineConfig e, JsonNode given) {
        SglangConfig s = e.sglang();
        SglangConfig d = SglangConfig.DEFAULTS;
        StringBuilder cmd = new StringBuilder("CUDA_VISIBLE_DEVICES=" + in.devices());
        if (s.initNewTokenRatio() != d.initNewTokenRatio()) {
            cmd.append(" SGLANG_INIT_NEW_TOKEN_RATIO=").append(number(s.initNewTokenRatio()));
        }
        if (s.minNewTokenRatioFactor() != d.minNewTokenRatioFactor()) {
            cmd.append(" SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR=").append(number(s.minNewTokenRatioFactor()));
        }
        if (s.newTokenRatioDecaySteps() != d.newTokenRatioDecaySteps()) {
            cmd.append(" SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS=").append(s.newTokenRatioDecaySteps());
        }
        cmd.append(" python -m sglang.launch_server --model-path ").append(in.model()).append(" --port ").append(in.port())
                .append(" --tp-size ").append(in.tp()).append(" --max-running-requests ").append(e.maxNumSeqs())
                .append(" --page-size ").append(e.blockSizeTokens()).append(" --chunked-prefill-size ")
                .append(s.chunkedPrefillSize()).append(" --max-prefill-tokens ").append(s.maxPrefillTokens())
                .append(" --schedule-policy ").append(s.policy().configName()).append(" --schedule-conservativeness ")
                .append(number(s.scheduleConservativeness())).append(" --mem-fraction-static ")
                .append(String.format(Locale.ROOT, "%.2f", e.gpuMemoryUtilization()));
        if (!e.prefixCaching()) {
            cmd.append(" --disable-radix-cache");
        }
        if (given.has("max_model_len")) {
            cmd.append(" --context-length ").append(e.maxModelLen());
        }
        if (given.has("total_kv_blocks")) {
            cmd.append(" --max-total-tokens ").append((long) e.totalKvBlocks() * e.blockSizeTokens());
        }
        if (in.quantization() != Quantization.AUTO) {
            cmd.append(" --quantization ").append(in.quantization().configName());
        }
        if (in.kvCache() != KvCacheDtype.AUTO) {
            // SGLang names the widths fp8_e4m3 and fp8_e5m2; vLLM's fp8 is fp8_e4m3
            cmd.append(" --kv-cache-dtype ").append(in.kvCache() == KvCacheDtype.FP8 ? "fp8_e4m3" : in.kvCache().configName());
        }
        if (!in.role().equals("replica")) {
            cmd.append(" --disaggregation-mode ").append(in.role()).append(" --disaggregation-transfer-backend nixl");
        }
        if (in.role().equals("prefill")) {
            cmd.append(" --disaggregation-bootstrap-port ").append(BOOTSTRAP_PORT + in.slot());
        }
        if (!in.spansNodes()) {
            return cmd.toString();
        }
        // SGLang's multi-node tensor parallelism (docs/references/multi_node_deployment.md): the same command on each node
        return spanningNote(in, "run this on each of them, node-rank 0 to " + (in.nodes() - 1) + ":\n" + cmd
                + " --nnodes " + in.nodes() + " --node-rank <0 to " + (in.nodes() - 1) + "> --dist-init-addr " + in.host()
                + ":" + (DIST_INIT_PORT + in.slot()));
    }

    /** Never asked: a run config refuses deployment.dp with the SGLang core ({@code SimConfigLoader}). */
    @Override
    List<String> dataParallel(Instance rank0, EngineConfig e, JsonNode given, Fleet.DataParallel dp, boolean internalLb) {
        throw new IllegalStateException("the SGLang core runs no vLLM data-parallel deployment");
    }

    @Override
    List<String> proxy(int prefill, int decode, int tp, int gpusPerNode) {
        StringBuilder cmd = new StringBuilder("python -m sglang_router.launch_router --pd-disaggregation");
        for (Instance p : range(0, prefill, tp, "prefill", gpusPerNode)) {
            cmd.append(" --prefill ").append(url(p)).append(' ').append(BOOTSTRAP_PORT + p.slot());
        }
        for (Instance d : range(prefill, decode, tp, "decode", gpusPerNode)) {
            cmd.append(" --decode ").append(url(d));
        }
        cmd.append(" --host 0.0.0.0 --port ").append(PROXY_PORT);
        return List.of("# the P/D router (pip install sglang-router), on port " + PROXY_PORT, cmd.toString());
    }

    private static String url(Instance i) {
        return "http://" + i.host() + ":" + i.port();
    }

    private static String number(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
