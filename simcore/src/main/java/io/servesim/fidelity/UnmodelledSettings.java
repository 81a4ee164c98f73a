package io.servesim.fidelity;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The engine arguments of a real run ({@code meta.json}'s {@code engine_kwargs}, vLLM's {@code EngineArgs} names) that
 * change what the hardware does and that a replay does not model yet: a run using one is refused with the argument
 * named, never replayed as if it were absent (a data-parallel run of two ranks replayed as one rank on half the
 * hardware came out at +2,217% TTFT; data and expert parallelism are modelled now, {@link ReplaySetup}). Each argument's vLLM meaning (vLLM 0.19 {@code vllm/engine/arg_utils.py}):
 * <ul>
 *   <li>{@code pipeline_parallel_size}: the layers split into stages, each on its own GPUs;</li>
 *   <li>{@code dtype}: activations and weights in float32 ({@code auto}, {@code bfloat16}, {@code float16} and
 *       {@code half} are the 16-bit widths every latency model assumes);</li>
 *   <li>{@code enable_chunked_prefill} false, {@code enforce_eager} true (no CUDA graphs), {@code scheduling_policy}
 *       other than {@code fcfs}: the engine the replay models chunks prefills, runs CUDA graphs and serves first come,
 *       first served; the modelled values are accepted.</li>
 * </ul>
 * Any other argument is refused too, unless the replay reads it ({@link EngineSettings}) or it leaves timing alone
 * ({@link #NO_TIMING_EFFECT}: which weights and tokenizer are loaded from where, the sampling seed, logging); a
 * misspelt or newer argument is named with the ones servesim knows, never dropped.
 */
final class UnmodelledSettings {
    private static final Set<String> SIXTEEN_BIT = Set.of("auto", "bfloat16", "float16", "half");
    /** Engine arguments {@link EngineSettings} reads (or {@link #refuse} checks) and a replay models. */
    private static final Set<String> READ = Set.of("model", "tensor_parallel_size", "data_parallel_size",
            "enable_expert_parallel", "max_num_seqs", "max_num_batched_tokens", "max_model_len", "block_size",
            "enable_prefix_caching", "gpu_memory_utilization", "long_prefill_token_threshold", "num_gpu_blocks_override",
            "async_scheduling", "kv_cache_dtype", "quantization", "pipeline_parallel_size", "dtype",
            "enable_chunked_prefill", "enforce_eager", "scheduling_policy");
    /**
     * Engine arguments that do not change a step's time or the scheduler's choices: where the weights and tokenizer come
     * from, the sampling seed (the replay takes each request's measured output length) and logging.
     */
    static final Set<String> NO_TIMING_EFFECT = Set.of("tokenizer", "tokenizer_mode", "revision", "tokenizer_revision",
            "trust_remote_code", "download_dir", "load_format", "served_model_name", "seed", "disable_log_stats",
            "disable_log_requests");

    private UnmodelledSettings() {
    }

    /** Throws naming the first argument of {@code kw} (in {@code where}) set to what a replay cannot model. */
    static void refuse(JsonNode kw, String where) {
        var names = kw.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!READ.contains(name) && !NO_TIMING_EFFECT.contains(name)) {
                throw new ConfigException(where + " engine_kwargs." + name, "not an engine argument servesim models or"
                        + " knows to leave timing alone; known: " + String.join(", ", known()));
            }
        }
        atMostOne(kw, "pipeline_parallel_size", where, "pipeline parallelism is not modelled by replay-real");
        only(kw, "enable_chunked_prefill", true, where, "the replay's engine chunks prefills as vLLM v1 does by default");
        only(kw, "enforce_eager", false, where, "the replay's step times are those of an engine running CUDA graphs");
        JsonNode policy = kw.get("scheduling_policy");
        if (policy != null && !policy.isNull() && !"fcfs".equals(policy.asText())) {
            throw new ConfigException(where + " engine_kwargs.scheduling_policy", policy + ": the run's requests carry no"
                    + " priorities, so replay-real serves first come, first served; valid: fcfs");
        }
        JsonNode dtype = kw.get("dtype");
        if (dtype != null && !dtype.isNull() && !SIXTEEN_BIT.contains(dtype.asText())) {
            throw new ConfigException(where + " engine_kwargs.dtype", dtype + ": the latency models assume 16-bit"
                    + " weights and activations; valid: " + String.join(", ", SIXTEEN_BIT.stream().sorted().toList()));
        }
    }

    private static List<String> known() {
        List<String> all = new ArrayList<>(READ);
        all.addAll(NO_TIMING_EFFECT);
        all.sort(null);
        return all;
    }

    /** Refuses a boolean argument set to anything but {@code modelled} (absent or null: vLLM's default, the modelled). */
    private static void only(JsonNode kw, String field, boolean modelled, String where, String why) {
        JsonNode v = kw.get(field);
        if (v == null || v.isNull()) {
            return;
        }
        if (!v.isBoolean()) {
            throw new ConfigException(where + " engine_kwargs." + field, "must be true or false, got " + v);
        }
        if (v.asBoolean() != modelled) {
            throw new ConfigException(where + " engine_kwargs." + field, v + ": not modelled (" + why + "); valid: "
                    + modelled);
        }
    }

    private static void atMostOne(JsonNode kw, String field, String where, String why) {
        JsonNode v = kw.get(field);
        if (v == null || v.isNull()) {
            return;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.asInt() < 1) {
            throw new ConfigException(where + " engine_kwargs." + field, "must be a positive integer, got " + v);
        }
        if (v.asInt() > 1) {
            throw new ConfigException(where + " engine_kwargs." + field, v.asInt() + ": " + why);
        }
    }
}
