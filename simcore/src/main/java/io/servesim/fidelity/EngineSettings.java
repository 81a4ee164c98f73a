package io.servesim.fidelity;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigException;
import io.servesim.engine.EngineConfig;
import io.servesim.latency.KvCacheDtype;
import io.servesim.latency.Quantization;
import java.util.ArrayList;
import java.util.List;

/**
 * The vLLM engine settings of a real run, from its {@code meta.json} (the format of
 * casys-kaist/LLMServingSim {@code bench/}: {@code model}, {@code vllm_version}, {@code engine_kwargs}
 * as passed to vLLM, optionally {@code hardware.device_name} and {@code num_gpu_blocks}).
 *
 * <p>Settings the file leaves out take vLLM v1's defaults (vLLM 0.19 {@code EngineArgs},
 * {@code CacheConfig}, {@code SchedulerConfig}), and each default applied is listed in
 * {@link #defaultsApplied()} so the report shows it: {@code block_size} 16 (CUDA),
 * {@code enable_prefix_caching} true (on by default in v1), {@code gpu_memory_utilization} 0.9,
 * {@code tensor_parallel_size} 1, {@code long_prefill_token_threshold} 0 (no cap with one partial
 * prefill), {@code max_model_len} the model's {@code max_position_embeddings}, {@code async_scheduling} true (the
 * default since vllm-project/vllm PR #27614); {@code data_parallel_size} 1 and {@code enable_expert_parallel} false
 * apply unlisted (one engine, what a run without them is). {@code max_num_seqs}
 * and {@code max_num_batched_tokens} are required: their vLLM defaults depend on the GPU and the
 * entry point (offline LLM or API server), so they cannot be assumed. Arguments that change what the hardware does
 * and that a replay does not model (pipeline parallelism, weights quantized other than fp8, float32) are refused, each named ({@link UnmodelledSettings}); fp8 weights and an fp8 KV cache are read ({@link #quantization}, {@link #kvCache}).
 *
 * @param model                   Hugging Face id served ({@code model}, else {@code engine_kwargs.model})
 * @param vllmVersion             {@code vllm_version}, or "unknown"
 * @param deviceNameOrNull        {@code hardware.device_name}, or null when the file has none
 * @param tensorParallel          {@code tensor_parallel_size}
 * @param dataParallel            {@code data_parallel_size}: engines (ranks) behind vLLM's DP load balancer
 * @param expertParallel          {@code enable_expert_parallel}: the ranks' MoE experts sharded over them, in lockstep
 * @param maxNumSeqs              {@code max_num_seqs}
 * @param maxNumBatchedTokens     {@code max_num_batched_tokens}
 * @param maxModelLenOrZero       {@code max_model_len}, or 0 for the model's own limit
 * @param blockSizeTokens         {@code block_size}
 * @param prefixCaching           {@code enable_prefix_caching}
 * @param gpuMemoryUtilization    {@code gpu_memory_utilization}
 * @param longPrefillTokenThreshold {@code long_prefill_token_threshold}
 * @param numGpuBlocksOrZero      KV blocks vLLM allocated ({@code num_gpu_blocks}, or
 *                                {@code engine_kwargs.num_gpu_blocks_override}), 0 when unknown
 * @param asyncScheduling         {@code async_scheduling}
 * @param defaultsApplied         settings taken from vLLM defaults, as "name value"
 * @param kvCache                 {@code kv_cache_dtype}: the KV cache's element width ({@code auto} the model's)
 * @param quantization            {@code quantization}: fp8 weights asked for, or the checkpoint's ({@code auto})
 */
public record EngineSettings(String model, String vllmVersion, String deviceNameOrNull, int tensorParallel,
                             int dataParallel, boolean expertParallel, int maxNumSeqs, int maxNumBatchedTokens, int maxModelLenOrZero, int blockSizeTokens,
                             boolean prefixCaching, double gpuMemoryUtilization, int longPrefillTokenThreshold,
                             int numGpuBlocksOrZero, boolean asyncScheduling, List<String> defaultsApplied,
                             KvCacheDtype kvCache, Quantization quantization) {
    /** The most data-parallel ranks of one deployment, as {@code deployment.dp} allows. */
    private static final int MAX_RANKS = 1024;

    public EngineSettings {
        defaultsApplied = List.copyOf(defaultsApplied);
    }

    /** Parses {@code meta.json}; {@code where} names the file in errors. */
    static EngineSettings parse(JsonNode meta, String where) {
        JsonNode kw = meta.path("engine_kwargs");
        if (!kw.isObject()) {
            throw new ConfigException(where + " engine_kwargs", "required: the vLLM engine arguments of the run");
        }
        UnmodelledSettings.refuse(kw, where);
        List<String> defaults = new ArrayList<>();
        List<String> unlisted = new ArrayList<>(); // one engine without expert parallelism: what a run without them is
        String model = text(meta, "model");
        if (model == null) {
            model = text(kw, "model");
        }
        if (model == null) {
            throw new ConfigException(where + " model", "required: the Hugging Face id of the served model");
        }
        String version = text(meta, "vllm_version");
        String device = text(meta.path("hardware"), "device_name");
        int blocks = integer(meta, "num_gpu_blocks", 0, where + " num_gpu_blocks");
        if (blocks == 0) {
            blocks = integer(kw, "num_gpu_blocks_override", 0, where + " engine_kwargs.num_gpu_blocks_override");
        }
        return new EngineSettings(model, version == null ? "unknown" : version, device,
                positive(orDefault(kw, "tensor_parallel_size", 1, where, defaults), "tensor_parallel_size", where),
                ranks(orDefault(kw, "data_parallel_size", 1, where, unlisted), where),
                flag(kw, "enable_expert_parallel", false, where, unlisted),
                required(kw, "max_num_seqs", where),
                required(kw, "max_num_batched_tokens", where),
                orDefault(kw, "max_model_len", 0, where, defaults),
                blockSize(kw, where, defaults),
                flag(kw, "enable_prefix_caching", true, where, defaults),
                fraction(kw, "gpu_memory_utilization", 0.9, where, defaults),
                orDefault(kw, "long_prefill_token_threshold", 0, where, defaults),
                blocks, flag(kw, "async_scheduling", true, where, defaults), defaults, kvCache(kw, where),
                quantization(kw, where));
    }

    /** {@code kv_cache_dtype}: {@code auto} when absent; a width servesim does not model is refused, naming the field. */
    private static KvCacheDtype kvCache(JsonNode kw, String where) {
        String v = text(kw, "kv_cache_dtype");
        return v == null ? KvCacheDtype.AUTO : KvCacheDtype.find(v).orElseThrow(() -> new ConfigException(
                where + " engine_kwargs.kv_cache_dtype", v + ": not a KV cache width servesim models; valid: "
                + String.join(", ", KvCacheDtype.names())));
    }

    /** {@code quantization}: the checkpoint's when absent or null; fp8 is modelled, other methods refused by name. */
    private static Quantization quantization(JsonNode kw, String where) {
        String v = text(kw, "quantization");
        if (v == null) {
            return Quantization.AUTO;
        }
        return Quantization.find(v).filter(q -> q != Quantization.AUTO).orElseThrow(() -> new ConfigException(
                where + " engine_kwargs.quantization", v + ": weights quantized so are not modelled by replay-real; valid:"
                + " fp8 (or none: the checkpoint's own)"));
    }

    /** {@code data_parallel_size}: as {@code deployment.dp}, 1 to 1,024 ranks. */
    private static int ranks(int v, String where) {
        if (v < 1 || v > MAX_RANKS) {
            throw new ConfigException(where + " engine_kwargs.data_parallel_size", "must be an integer in [1, " + MAX_RANKS
                    + "] ranks (more than 1,024 data-parallel ranks of one deployment are beyond any vLLM deployment), got " + v);
        }
        return v;
    }

    /** {@code block_size}: one of the sizes vLLM accepts, 16 when absent. */
    private static int blockSize(JsonNode kw, String where, List<String> defaults) {
        JsonNode v = kw.get("block_size");
        if (v == null || v.isNull()) {
            return orDefault(kw, "block_size", 16, where, defaults);
        }
        if (!(v.isIntegralNumber() && v.canConvertToInt() && EngineConfig.BLOCK_SIZES.contains(v.asInt()))) {
            throw new ConfigException(where + " engine_kwargs.block_size", "must be one of vLLM's block sizes "
                    + EngineConfig.BLOCK_SIZES + ", got " + v);
        }
        return v.asInt();
    }

    private static int positive(int v, String field, String where) {
        if (v < 1) {
            throw new ConfigException(where + " engine_kwargs." + field, "must be a positive integer, got " + v);
        }
        return v;
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() || !v.isValueNode() || v.asText().isBlank() ? null : v.asText();
    }

    private static int required(JsonNode kw, String field, String where) {
        JsonNode given = kw.get(field);
        if (given == null || given.isNull()) {
            throw new ConfigException(where + " engine_kwargs." + field, "required (a positive integer): vLLM's default "
                    + "depends on the GPU and entry point, so the run must record it");
        }
        if (!(given.isIntegralNumber() && given.canConvertToInt() && given.asInt() >= 1)) {
            throw new ConfigException(where + " engine_kwargs." + field, "must be a positive integer, got " + given);
        }
        return given.asInt();
    }

    private static int orDefault(JsonNode kw, String field, int fallback, String where, List<String> defaults) {
        JsonNode v = kw.get(field);
        if (v == null || v.isNull()) {
            defaults.add(field + " " + (field.equals("max_model_len") ? "(the model's max_position_embeddings)" : fallback));
            return fallback;
        }
        return integer(kw, field, fallback, where + " engine_kwargs." + field);
    }

    /** An optional non-negative integer; {@code path} names it in the error. */
    private static int integer(JsonNode node, String field, int fallback, String path) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (!v.canConvertToInt() || !v.isIntegralNumber() || v.asInt() < 0) {
            throw new ConfigException(path, "must be a non-negative integer, got " + v);
        }
        return v.asInt();
    }

    private static boolean flag(JsonNode kw, String field, boolean fallback, String where, List<String> defaults) {
        JsonNode v = kw.get(field);
        if (v == null || v.isNull()) {
            defaults.add(field + " " + fallback);
            return fallback;
        }
        if (!v.isBoolean()) {
            throw new ConfigException(where + " engine_kwargs." + field, "must be true or false, got " + v);
        }
        return v.asBoolean();
    }

    private static double fraction(JsonNode kw, String field, double fallback, String where, List<String> defaults) {
        JsonNode v = kw.get(field);
        if (v == null || v.isNull()) {
            defaults.add(field + " " + fallback);
            return fallback;
        }
        if (!v.isNumber() || !(v.asDouble() > 0 && v.asDouble() <= 1)) {
            throw new ConfigException(where + " engine_kwargs." + field, "must be a number in (0, 1], got " + v);
        }
        return v.asDouble();
    }
}
