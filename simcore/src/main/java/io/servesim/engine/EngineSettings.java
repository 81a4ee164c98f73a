package io.servesim.engine;

import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import java.util.List;

/**
 * The {@code engine:} settings of one vLLM instance (also under {@code deployment.pd.<pool>.engine:}), with vLLM's
 * names and defaults: {@code SchedulerConfig} and {@code CacheConfig} of vLLM v1 ({@code vllm/config/scheduler.py},
 * {@code vllm/config/cache.py}, and the online-serving defaults of {@code vllm/engine/arg_utils.py}: 256 running
 * sequences, 2,048 batched tokens with chunked prefill, 16-token blocks, 90% of GPU memory), plus the CPU KV tier's
 * (BLIS's {@code --kv-cpu-blocks}, {@code --kv-offload-threshold}, {@code --kv-transfer-bandwidth},
 * {@code --kv-transfer-base-latency}; {@link KvTierConfig}).
 */
public final class EngineSettings {
    public static final Setting<String> KIND = Setting.of("engine.kind", ValueType.choice(List.of("vllm", "sglang"), "engine kind"),
            "vllm", "The engine core: vllm (vLLM v1's scheduler and hashed-block prefix cache) or sglang (SGLang's scheduler"
                    + " and radix-tree prefix cache, docs/sglang-core.md); each refuses the other's settings.")
            .flag("--engine-kind");
    public static final Setting<Long> MAX_NUM_SEQS = Setting.of("engine.max_num_seqs",
            ValueType.integer(1, 1 << 20).in("requests", null), 256L,
            "Running requests at most (vLLM max_num_seqs; BLIS max-num-running-reqs).")
            .flag("--max-num-seqs").alias("max_num_running_reqs");
    public static final Setting<Long> MAX_NUM_BATCHED_TOKENS = Setting.of("engine.max_num_batched_tokens",
            ValueType.integer(1, 1 << 24).in("tokens", null), 2048L,
            "Tokens scheduled per step at most (vLLM max_num_batched_tokens; BLIS max-num-scheduled-tokens).")
            .flag("--max-num-batched-tokens").alias("max_num_scheduled_tokens");
    public static final Setting<Long> LONG_PREFILL_TOKEN_THRESHOLD = Setting.of("engine.long_prefill_token_threshold",
            ValueType.integer(0, Integer.MAX_VALUE).in("tokens", null), 0L,
            "A prefill chunk is capped at this many tokens; 0: no cap beyond the step's budget (vLLM"
                    + " long_prefill_token_threshold).")
            .flag("--long-prefill-token-threshold");
    public static final Setting<Long> MAX_MODEL_LEN = Setting.derived("engine.max_model_len",
            ValueType.integer(1, Integer.MAX_VALUE).in("tokens", null), "the model's max_position_embeddings",
            "Prompt + output tokens at most; a request that cannot fit is dropped at enqueue (vLLM max_model_len).")
            .flag("--max-model-len");
    public static final Setting<Long> BLOCK_SIZE = Setting.of("engine.block_size",
            ValueType.integer(1, 128).in("tokens", null), 16L,
            "Tokens per KV block; one of vLLM's block sizes " + EngineConfig.BLOCK_SIZES + " (vLLM block_size).")
            .flag("--block-size");
    public static final Setting<Long> TOTAL_KV_BLOCKS = Setting.derived("engine.total_kv_blocks",
            ValueType.integer(1, KvCache.MAX_BLOCKS).in("blocks", "at most the largest cache the simulator indexes per instance"),
            "the trained coefficients' capacity (at another gpu_memory_utilization than 0.9, scaled by the GPU-memory"
                    + " estimate), else derived from GPU memory at gpu_memory_utilization",
            "KV blocks of one instance (vLLM num_gpu_blocks).")
            .flag("--total-kv-blocks");
    public static final Setting<Double> GPU_MEMORY_UTILIZATION = Setting.of("engine.gpu_memory_utilization",
            ValueType.real(0.01, 1.0).in("", "a share of the GPU's memory"), EngineConfig.DEFAULT_GPU_MEMORY_UTILIZATION,
            "Share of GPU memory vLLM may use (vLLM gpu_memory_utilization): sizes a KV capacity derived from GPU memory,"
                    + " and scales trained coefficients' capacity, taken as measured at 0.9.");
    public static final Setting<Boolean> ENABLE_PREFIX_CACHING = Setting.of("engine.enable_prefix_caching",
            ValueType.bool(), true, "Automatic prefix caching (vLLM enable_prefix_caching; on by default in vLLM v1).");
    public static final Setting<Boolean> ASYNC_SCHEDULING = Setting.of("engine.async_scheduling", ValueType.bool(), true,
            "vLLM's async scheduling: step n+1 is formed while step n executes, so a request queued during a step joins"
                    + " the step after next (vLLM async_scheduling, on by default since vLLM PR #27614; false for vLLM up"
                    + " to 0.11).")
            .flag("--async-scheduling");
    public static final Setting<Long> WARMUP_STEPS = Setting.of("engine.warmup_steps",
            ValueType.integer(0, Integer.MAX_VALUE).in("steps", null), 0L,
            "A replica's first steps that run warmup_factor times slower (first-use kernel compilation and autotuning);"
                    + " 0: no warm-up by count.")
            .flag("--engine-warmup-steps");
    public static final Setting<Long> WARMUP_DURATION = Setting.of("engine.warmup_duration",
            ValueType.duration(0, 86_400_000_000L).because("a warm-up beyond a day is no warm-up"), 0L,
            "Steps a replica starts within this long of its first step run warmup_factor times slower; 0: no warm-up by"
                    + " time. Not autoscaling.warmup_duration, the start-up time before a new replica serves at all.")
            .flag("--engine-warmup-duration");
    public static final Setting<Double> WARMUP_FACTOR = Setting.of("engine.warmup_factor",
            ValueType.real(1, 100).in("x", "a step at least as fast as steady state, at most 100 times slower"), 1.0,
            "How much slower a warm-up step is than the latency model's steady-state step.")
            .flag("--engine-warmup-factor");
    public static final Setting<Boolean> MACRO_STEPS = Setting.of("engine.macro_steps", ValueType.bool(), true,
            "Run steady decode stretches as macro-steps (the same records and summary, faster; false is a debug switch"
                    + " that runs every step on its own, DecodeStretch). A speculating engine (engine.speculative) runs every"
                    + " step on its own: a stretch assumes one token per request and step.");

    public static final Setting<Long> KV_CPU_BLOCKS = Setting.of("engine.kv_cpu_blocks",
            ValueType.integer(0, KvCache.MAX_BLOCKS).in("blocks", "at most the largest cache the simulator indexes per instance"), 0L,
            "CPU KV tier under each GPU cache; 0: none (BLIS --kv-cpu-blocks).")
            .flag("--kv-cpu-blocks");
    public static final Setting<Double> KV_OFFLOAD_THRESHOLD = Setting.of("engine.kv_offload_threshold",
            ValueType.real(0, 1).in("", "a share of the GPU blocks"), KvTierConfig.DEFAULT_OFFLOAD_THRESHOLD,
            "A GPU block evicted while more than this share of GPU blocks is in use is copied to the CPU tier (BLIS"
                    + " --kv-offload-threshold).")
            .flag("--kv-offload-threshold");
    public static final Setting<Double> KV_TRANSFER_BANDWIDTH = Setting.derived("engine.kv_transfer_bandwidth",
            ValueType.bandwidth(0.01, 10_000).because("a GPU-CPU link below 10 MB/s moves a 2 MiB KV block in over 0.2 s,"
                    + " slower than recomputing it; above 10 TB/s is beyond any PCIe, NVLink-C2C or HBM"),
            "the GPU's host link (PCIe x16)", "The GPU-CPU KV link, shared by offloads and reloads (BLIS"
                    + " --kv-transfer-bandwidth).")
            .flag("--kv-transfer-bandwidth");
    public static final Setting<Long> KV_TRANSFER_BASE_LATENCY = Setting.of("engine.kv_transfer_base_latency_us",
            ValueType.duration(0, 60_000_000L).bareMicros().because("a fixed cost per transfer beyond a minute is no link"),
            0L, "Fixed cost of one KV transfer on the link (BLIS --kv-transfer-base-latency).")
            .flag("--kv-transfer-base-latency").alias("kv_transfer_base_latency");
    public static final Setting<String> KV_RELOAD = Setting.of("engine.kv_reload",
            ValueType.choice(List.of("blocking", "step")), "blocking",
            "How a reload delays work: blocking (the request waits, others compute: vLLM's OffloadingConnector) or step"
                    + " (the step that admits it waits: BLIS's tiered cache).")
            .flag("--kv-reload");
    public static final Setting<Boolean> KV_RELOAD_ON_ALLOCATION_FAILURE = Setting.of("engine.kv_reload_on_allocation_failure",
            ValueType.bool(), false, "Consult the CPU tier only when a new request's GPU allocation fails (BLIS's trigger)"
                    + " instead of at every admission.")
            .flag("--kv-reload-on-allocation-failure");

    /**
     * The vLLM core's settings with no meaning in the SGLang core (refused with {@code engine.kind: sglang}): its block
     * size (SGLang's is page_size), step budget and chunking threshold (SGLang's are chunked_prefill_size and
     * max_prefill_tokens), async scheduling and macro-steps, and the CPU KV tier (SGLang's HiCache is not modelled).
     */
    public static final List<Setting<?>> VLLM_ONLY = List.of(MAX_NUM_BATCHED_TOKENS, LONG_PREFILL_TOKEN_THRESHOLD, BLOCK_SIZE,
            ASYNC_SCHEDULING, MACRO_STEPS, KV_CPU_BLOCKS, KV_OFFLOAD_THRESHOLD, KV_TRANSFER_BANDWIDTH,
            KV_TRANSFER_BASE_LATENCY, KV_RELOAD, KV_RELOAD_ON_ALLOCATION_FAILURE);

    /** Every engine setting, in documentation order (the SGLang core's last). */
    public static final List<Setting<?>> ALL = java.util.stream.Stream.concat(java.util.stream.Stream.<Setting<?>>of(KIND, MAX_NUM_SEQS, MAX_NUM_BATCHED_TOKENS, LONG_PREFILL_TOKEN_THRESHOLD,
            MAX_MODEL_LEN, BLOCK_SIZE, TOTAL_KV_BLOCKS, GPU_MEMORY_UTILIZATION, ENABLE_PREFIX_CACHING, ASYNC_SCHEDULING, WARMUP_STEPS, WARMUP_DURATION,
            WARMUP_FACTOR, MACRO_STEPS,
            KV_CPU_BLOCKS, KV_OFFLOAD_THRESHOLD, KV_TRANSFER_BANDWIDTH, KV_TRANSFER_BASE_LATENCY, KV_RELOAD,
            KV_RELOAD_ON_ALLOCATION_FAILURE), SglangSettings.ALL.stream()).toList();

    private EngineSettings() {
    }
}
