package io.servesim.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigNode;
import io.servesim.engine.encoder.EncoderBudget;
import java.util.List;

/**
 * vLLM engine limits of one instance (vLLM {@code SchedulerConfig} / {@code CacheConfig}), as
 * bound from a config's {@code engine:} section ({@link #bind}). Two values may be left to the
 * deployment and are then resolved once, against the model and GPU, before a run
 * ({@code io.servesim.run.RunPlan}): {@code max_model_len} ({@link #MAX_MODEL_LEN_FROM_MODEL}, the
 * model's context length, as vLLM defaults it) and {@code total_kv_blocks}
 * ({@link #KV_BLOCKS_FROM_DEPLOYMENT}: trained coefficients' capacity, else derived from GPU memory
 * at {@code gpu_memory_utilization}). An {@link Engine} runs only on a resolved config.
 *
 * @param maxNumSeqs                 running requests at most ({@code max_num_seqs}, BLIS {@code max-num-running-reqs})
 * @param maxNumBatchedTokens        tokens per step at most ({@code max_num_batched_tokens}, BLIS {@code max-num-scheduled-tokens})
 * @param longPrefillTokenThreshold  a prefill chunk is capped at this many tokens; 0 = no cap
 *                                   ({@code long_prefill_token_threshold}, chunked prefill)
 * @param maxModelLen                prompt + output tokens at most; 0 = unlimited ({@code max_model_len})
 * @param blockSizeTokens            tokens per KV block ({@code block_size})
 * @param totalKvBlocks              KV blocks of the instance ({@code num_gpu_blocks})
 * @param gpuMemoryUtilization       share of GPU memory vLLM may use, when KV capacity is derived ({@code gpu_memory_utilization})
 * @param prefixCaching              automatic prefix caching on ({@code enable_prefix_caching})
 * @param kvTiers                    the CPU tier under the GPU cache and its link ({@link KvTierConfig#OFF}: none)
 * @param macroSteps                 steady decode stretches run as macro-steps ({@link DecodeStretch}; the same results,
 *                                   faster); false runs every step on its own, a debug switch ({@code engine.macro_steps})
 * @param asyncScheduling            vLLM's async scheduling ({@code async_scheduling}): the scheduler forms step n+1 while
 *                                   step n executes, so a request queued during a step joins the step after next
 *                                   ({@link Engine}); false: a step takes every request queued before it starts
 * @param warmup                     a replica's first steps run slower ({@link Warmup#OFF}: none)
 * @param speculative                speculative decoding ({@link SpecDecodeConfig#OFF}: none)
 * @param sglang                     the SGLang core's scheduler settings ({@code engine.kind: sglang}), or null for the
 *                                   vLLM core; with it, {@code blockSizeTokens} is SGLang's page size, {@code
 *                                   maxNumBatchedTokens} its {@code chunked_prefill_size}, and there are no macro-steps,
 *                                   async scheduling or CPU tier
 * @param encoder                    the multimodal encoder's budget per step and cache size ({@link EncoderInputs}; the
 *                                   SGLang core has no budget, 0, and uses the cache size for its embedding cache,
 *                                   {@link SglangEmbeddingCache}), or null when no request carries image, audio or
 *                                   video items (set by the run plan from the workload, {@link #withEncoder})
 */
public record EngineConfig(int maxNumSeqs, int maxNumBatchedTokens, int longPrefillTokenThreshold,
                           int maxModelLen, int blockSizeTokens, int totalKvBlocks, double gpuMemoryUtilization,
                           boolean prefixCaching, KvTierConfig kvTiers, boolean macroSteps, boolean asyncScheduling,
                           Warmup warmup, SpecDecodeConfig speculative, SglangConfig sglang, EncoderBudget encoder) {
    /**
     * A warm-up phase of each replica: its first {@code steps} steps, or the steps it starts within {@code durationUs} of
     * its first step, take {@code factor} times as long (first-use kernel compilation and autotuning, which vLLM's
     * start-up warm-up does not cover for every shape). Off by default: no source gives a factor for every model and GPU.
     *
     * @param steps      steps slowed, counted from the replica's first (0: none by count)
     * @param durationUs time slowed from the replica's first step (0: none by time)
     * @param factor     slowdown of a warm-up step, at least 1
     */
    public record Warmup(int steps, long durationUs, double factor) {
        public static final Warmup OFF = new Warmup(0, 0, 1.0);

        public Warmup {
            if (steps < 0 || durationUs < 0 || !(factor >= 1) || Double.isInfinite(factor)) {
                throw new IllegalArgumentException("invalid warm-up " + steps + " " + durationUs + " " + factor);
            }
        }

        public boolean enabled() {
            return factor > 1 && (steps > 0 || durationUs > 0);
        }
    }

    /** {@code max_model_len} not given: the model's context length. */
    public static final int MAX_MODEL_LEN_FROM_MODEL = -1;
    /** {@code total_kv_blocks} not given: from the trained coefficients or GPU memory. */
    public static final int KV_BLOCKS_FROM_DEPLOYMENT = 0;
    /** vLLM's default {@code gpu_memory_utilization}. */
    public static final double DEFAULT_GPU_MEMORY_UTILIZATION = 0.9;
    /** The KV block sizes vLLM accepts ({@code CacheConfig.block_size}). */
    public static final List<Integer> BLOCK_SIZES = List.of(1, 8, 16, 32, 64, 128);

    /** A config without a multimodal encoder. */
    public EngineConfig(int maxNumSeqs, int maxNumBatchedTokens, int longPrefillTokenThreshold, int maxModelLen,
                        int blockSizeTokens, int totalKvBlocks, double gpuMemoryUtilization, boolean prefixCaching,
                        KvTierConfig kvTiers, boolean macroSteps, boolean asyncScheduling, Warmup warmup,
                        SpecDecodeConfig speculative, SglangConfig sglang) {
        this(maxNumSeqs, maxNumBatchedTokens, longPrefillTokenThreshold, maxModelLen, blockSizeTokens, totalKvBlocks,
                gpuMemoryUtilization, prefixCaching, kvTiers, macroSteps, asyncScheduling, warmup, speculative, sglang, null);
    }

    /** A vLLM-core config without speculative decoding. */
    public EngineConfig(int maxNumSeqs, int maxNumBatchedTokens, int longPrefillTokenThreshold, int maxModelLen,
                        int blockSizeTokens, int totalKvBlocks, double gpuMemoryUtilization, boolean prefixCaching,
                        KvTierConfig kvTiers, boolean macroSteps, boolean asyncScheduling, Warmup warmup) {
        this(maxNumSeqs, maxNumBatchedTokens, longPrefillTokenThreshold, maxModelLen, blockSizeTokens, totalKvBlocks,
                gpuMemoryUtilization, prefixCaching, kvTiers, macroSteps, asyncScheduling, warmup, SpecDecodeConfig.OFF, null);
    }

    /** A config without a warm-up phase. */
    public EngineConfig(int maxNumSeqs, int maxNumBatchedTokens, int longPrefillTokenThreshold, int maxModelLen,
                        int blockSizeTokens, int totalKvBlocks, double gpuMemoryUtilization, boolean prefixCaching,
                        KvTierConfig kvTiers, boolean macroSteps, boolean asyncScheduling) {
        this(maxNumSeqs, maxNumBatchedTokens, longPrefillTokenThreshold, maxModelLen, blockSizeTokens, totalKvBlocks,
                gpuMemoryUtilization, prefixCaching, kvTiers, macroSteps, asyncScheduling, Warmup.OFF);
    }

    public EngineConfig {
        if (warmup == null || speculative == null) {
            throw new IllegalArgumentException("warmup or speculative is null");
        }
        if (maxNumSeqs <= 0 || maxNumBatchedTokens <= 0 || longPrefillTokenThreshold < 0
                || maxModelLen < MAX_MODEL_LEN_FROM_MODEL || blockSizeTokens <= 0 || totalKvBlocks < 0
                || !(gpuMemoryUtilization > 0 && gpuMemoryUtilization <= 1) || kvTiers == null) {
            throw new IllegalArgumentException("invalid engine config " + this);
        }
        if (sglang != null && sglang.chunkedPrefillSize() < blockSizeTokens) {
            throw new IllegalArgumentException("a prefill chunk holds at least one page: " + this);
        }
        if (sglang != null && (macroSteps || asyncScheduling || kvTiers.enabled())) {
            throw new IllegalArgumentException("the SGLang core runs without macro-steps, async scheduling and a CPU tier: " + this);
        }
    }

    /**
     * A config with macro-steps on and without async scheduling: every step takes what was queued before it starts (the
     * engine most tests derive their expected numbers for; configs bound from YAML follow vLLM's default instead).
     */
    public EngineConfig(int maxNumSeqs, int maxNumBatchedTokens, int longPrefillTokenThreshold, int maxModelLen,
                        int blockSizeTokens, int totalKvBlocks, double gpuMemoryUtilization, boolean prefixCaching,
                        KvTierConfig kvTiers) {
        this(maxNumSeqs, maxNumBatchedTokens, longPrefillTokenThreshold, maxModelLen, blockSizeTokens, totalKvBlocks,
                gpuMemoryUtilization, prefixCaching, kvTiers, true, false);
    }

    /** A config without a CPU tier. */
    public EngineConfig(int maxNumSeqs, int maxNumBatchedTokens, int longPrefillTokenThreshold, int maxModelLen,
                        int blockSizeTokens, int totalKvBlocks, double gpuMemoryUtilization, boolean prefixCaching) {
        this(maxNumSeqs, maxNumBatchedTokens, longPrefillTokenThreshold, maxModelLen, blockSizeTokens, totalKvBlocks,
                gpuMemoryUtilization, prefixCaching, KvTierConfig.OFF);
    }

    /** A resolved config at vLLM's default memory utilization (tests, replays). */
    public EngineConfig(int maxNumSeqs, int maxNumBatchedTokens, int longPrefillTokenThreshold, int maxModelLen,
                        int blockSizeTokens, int totalKvBlocks, boolean prefixCaching) {
        this(maxNumSeqs, maxNumBatchedTokens, longPrefillTokenThreshold, maxModelLen, blockSizeTokens, totalKvBlocks,
                DEFAULT_GPU_MEMORY_UTILIZATION, prefixCaching);
    }

    /** Binds the {@code engine:} section ({@link EngineSettings}: vLLM's names and defaults); problems go to {@code e}. */
    public static EngineConfig bind(ConfigNode e) {
        if ("sglang".equals(e.get(EngineSettings.KIND))) {
            return bindSglang(e);
        }
        refuseOtherKind(e, SglangSettings.ALL, "vllm", "sglang");
        int maxNumSeqs = e.getInt(EngineSettings.MAX_NUM_SEQS);
        int maxBatched = e.getInt(EngineSettings.MAX_NUM_BATCHED_TOKENS);
        int threshold = e.getInt(EngineSettings.LONG_PREFILL_TOKEN_THRESHOLD);
        Long modelLen = e.get(EngineSettings.MAX_MODEL_LEN);
        int maxModelLen = modelLen == null ? MAX_MODEL_LEN_FROM_MODEL : Math.toIntExact(modelLen);
        int blockSize = e.getInt(EngineSettings.BLOCK_SIZE);
        if (!BLOCK_SIZES.contains(blockSize)) {
            e.problem(e.pathOf("block_size"), "must be one of vLLM's block sizes " + BLOCK_SIZES + ", got " + blockSize);
        }
        Long kvBlocks = e.get(EngineSettings.TOTAL_KV_BLOCKS);
        int totalKvBlocks = kvBlocks == null ? KV_BLOCKS_FROM_DEPLOYMENT : Math.toIntExact(kvBlocks);
        double util = e.get(EngineSettings.GPU_MEMORY_UTILIZATION);
        boolean prefix = e.get(EngineSettings.ENABLE_PREFIX_CACHING);
        boolean macroSteps = e.get(EngineSettings.MACRO_STEPS);
        boolean asyncScheduling = e.get(EngineSettings.ASYNC_SCHEDULING);
        Warmup warmup = bindWarmup(e);
        KvTierConfig tiers = KvTierConfig.bind(e);
        SpecDecodeConfig speculative = SpecDecodeConfig.bind(e.child("speculative"));
        if (tiers.enabled() && !prefix) {
            e.problem(e.pathOf("kv_cpu_blocks"), "needs enable_prefix_caching: true (the CPU tier holds prefix-cached blocks), got "
                    + tiers.cpuBlocks() + " with prefix caching off");
        }
        e.finish();
        return new EngineConfig(maxNumSeqs, maxBatched, threshold, maxModelLen, blockSize, totalKvBlocks, util, prefix,
                tiers, macroSteps, asyncScheduling, warmup, speculative, null);
    }

    /**
     * Binds an {@code engine:} section of {@code kind: sglang}: the settings both cores share, SGLang's
     * ({@link SglangSettings}), and none of the vLLM core's own ({@link EngineSettings#VLLM_ONLY}, refused by path).
     * The page size stands where the vLLM block size does, {@code chunked_prefill_size} where the step budget does.
     */
    private static EngineConfig bindSglang(ConfigNode e) {
        refuseOtherKind(e, EngineSettings.VLLM_ONLY, "sglang", "vllm");
        if (e.has("speculative")) {
            e.declare("speculative");
            e.problem(e.pathOf("speculative"), "speculative decoding is modelled in the vllm engine core only; engine.kind"
                    + " is sglang (docs/sglang-core.md lists what that core models)");
        }
        int maxNumSeqs = e.getInt(EngineSettings.MAX_NUM_SEQS);
        Long modelLen = e.get(EngineSettings.MAX_MODEL_LEN);
        int maxModelLen = modelLen == null ? MAX_MODEL_LEN_FROM_MODEL : Math.toIntExact(modelLen);
        Long kvBlocks = e.get(EngineSettings.TOTAL_KV_BLOCKS);
        int totalKvBlocks = kvBlocks == null ? KV_BLOCKS_FROM_DEPLOYMENT : Math.toIntExact(kvBlocks);
        double util = e.get(EngineSettings.GPU_MEMORY_UTILIZATION);
        boolean prefix = e.get(EngineSettings.ENABLE_PREFIX_CACHING);
        Warmup warmup = bindWarmup(e);
        int pageSize = e.getInt(SglangSettings.PAGE_SIZE);
        SglangConfig sglang = new SglangConfig(SglangConfig.Policy.of(e.get(SglangSettings.SCHEDULE_POLICY)),
                e.getInt(SglangSettings.CHUNKED_PREFILL_SIZE), e.getInt(SglangSettings.MAX_PREFILL_TOKENS),
                e.get(SglangSettings.INIT_NEW_TOKEN_RATIO), e.get(SglangSettings.MIN_NEW_TOKEN_RATIO_FACTOR),
                e.getInt(SglangSettings.NEW_TOKEN_RATIO_DECAY_STEPS), e.get(SglangSettings.SCHEDULE_CONSERVATIVENESS));
        if (sglang.chunkedPrefillSize() < pageSize) {
            e.problem(e.pathOf("chunked_prefill_size"), "must be at least page_size (" + pageSize + "): a chunk holds whole"
                    + " pages; got " + sglang.chunkedPrefillSize());
            sglang = SglangConfig.DEFAULTS;
        }
        e.finish();
        return new EngineConfig(maxNumSeqs, sglang.chunkedPrefillSize(), 0, maxModelLen, pageSize, totalKvBlocks, util,
                prefix, KvTierConfig.OFF, false, false, warmup, SpecDecodeConfig.OFF, sglang);
    }

    /**
     * Refuses, by path, every setting of {@code others} written in an {@code engine:} section of kind {@code kind}:
     * they belong to the {@code otherKind} core and mean nothing in this one.
     */
    private static void refuseOtherKind(ConfigNode e, List<io.servesim.config.Setting<?>> others, String kind, String otherKind) {
        for (io.servesim.config.Setting<?> s : others) {
            List<String> names = new java.util.ArrayList<>(s.aliases());
            names.add(0, s.key());
            for (String n : names) {
                if (e.has(n)) {
                    e.declare(n); // refused here, not reported again as unknown
                    e.problem(e.pathOf(n), "is a setting of the " + otherKind + " engine core; engine.kind is " + kind
                            + ", whose core has no such setting (docs/sglang-core.md lists each core's settings)");
                }
            }
        }
    }

    /**
     * Removes from {@code inherited} (a P/D pool's copy of the top-level {@code engine:} section) the settings, aliases
     * included, of the core that is not {@code kind}: a pool that switches core inherits only what its own core has.
     */
    public static void keepSettingsOf(String kind, ObjectNode inherited) {
        List<io.servesim.config.Setting<?>> others = "sglang".equals(kind) ? EngineSettings.VLLM_ONLY
                : "vllm".equals(kind) ? SglangSettings.ALL : List.of();
        for (io.servesim.config.Setting<?> s : others) {
            inherited.remove(s.key());
            inherited.remove(s.aliases());
        }
    }

    /** Whether this is the SGLang core ({@code engine.kind: sglang}). */
    public boolean isSglang() {
        return sglang != null;
    }

    /** The core's name as {@code engine.kind} gives it: {@code vllm} or {@code sglang}. */
    public String kindName() {
        return isSglang() ? "sglang" : "vllm";
    }

    /** The name the config gives the KV block size under this core: SGLang's {@code page_size}, vLLM's {@code block_size}. */
    public String blockSizeKey() {
        return isSglang() ? "page_size" : "block_size";
    }

    /**
     * This config as the SGLang core with {@code s} (macro-steps, async scheduling and the CPU tier off; tests and
     * callers that build a config in code).
     */
    public EngineConfig withSglang(SglangConfig s) {
        Copy c = new Copy(this);
        c.maxNumBatchedTokens = s.chunkedPrefillSize();
        c.longPrefillTokenThreshold = 0;
        c.kvTiers = KvTierConfig.OFF;
        c.macroSteps = false;
        c.asyncScheduling = false;
        c.speculative = SpecDecodeConfig.OFF;
        c.sglang = s;
        return c.build();
    }

    /**
     * {@code warmup_steps}, {@code warmup_duration} and {@code warmup_factor}: one of the first two with a factor above 1,
     * or none; a factor alone, or a phase with the factor left at 1, would do nothing and is refused.
     */
    private static Warmup bindWarmup(ConfigNode e) {
        long steps = e.get(EngineSettings.WARMUP_STEPS);
        long duration = e.get(EngineSettings.WARMUP_DURATION);
        double factor = e.get(EngineSettings.WARMUP_FACTOR);
        boolean phase = steps > 0 || duration > 0;
        if (steps > 0 && duration > 0) {
            e.problem(e.pathOf("warmup_duration"), "give the warm-up by steps or by time, not both (warmup_steps is "
                    + steps + ")");
            return Warmup.OFF;
        }
        if (phase && factor == 1.0) {
            e.problem(e.pathOf("warmup_factor"), "required above 1 with a warm-up phase (" + (steps > 0 ? "warmup_steps"
                    : "warmup_duration") + " is set): a factor of 1 slows nothing");
            return Warmup.OFF;
        }
        if (!phase && e.has("warmup_factor")) {
            e.problem(e.pathOf("warmup_factor"), "applies only with warmup_steps or warmup_duration; set one or remove it");
            return Warmup.OFF;
        }
        return new Warmup((int) Math.min(Integer.MAX_VALUE, steps), duration, factor);
    }

    /** Whether the deployment-dependent values are known (an {@link Engine} needs that). */
    public boolean isResolved() {
        return maxModelLen != MAX_MODEL_LEN_FROM_MODEL && totalKvBlocks != KV_BLOCKS_FROM_DEPLOYMENT && kvTiers.isResolved();
    }

    /** This config with {@code max_model_len} and {@code total_kv_blocks} resolved. */
    public EngineConfig resolved(int maxModelLenTokens, int kvBlocks) {
        Copy c = new Copy(this);
        c.maxModelLen = maxModelLenTokens;
        c.totalKvBlocks = kvBlocks;
        return c.build();
    }

    /**
     * Why an instance with these (resolved) limits refuses a request of {@code inputTokens} prompt tokens and an
     * output budget of {@code maxOutputTokens} (0: none) at enqueue, or null: the prompt alone reaches
     * {@code max_model_len} or prompt + budget exceeds it (vLLM's input validation, {@code _validate_input} in
     * {@code vllm/entrypoints/openai/serving_engine.py}; BLIS's MaxModelLen guard), or prompt + budget needs more KV
     * blocks than the whole cache (BLIS's KV-capacity guard).
     */
    public DropReason refuses(int inputTokens, int maxOutputTokens) {
        long budgetTokens = (long) inputTokens + maxOutputTokens;
        if (maxModelLen > 0 && (inputTokens >= maxModelLen || budgetTokens > maxModelLen)) {
            return DropReason.EXCEEDS_MAX_MODEL_LEN;
        }
        if ((budgetTokens + blockSizeTokens - 1) / blockSizeTokens > totalKvBlocks) {
            return DropReason.EXCEEDS_KV_CAPACITY;
        }
        return null;
    }

    /** This config with vLLM's async scheduling on or off ({@link #asyncScheduling()}). */
    public EngineConfig withAsyncScheduling(boolean on) {
        Copy c = new Copy(this);
        c.asyncScheduling = on;
        return c.build();
    }

    /** This config with macro-steps on or off ({@link #macroSteps()}; off for the ranks of a {@link Lockstep} group). */
    public EngineConfig withMacroSteps(boolean on) {
        Copy c = new Copy(this);
        c.macroSteps = on;
        return c.build();
    }

    /** This config with the warm-up phase {@code w}. */
    public EngineConfig withWarmup(Warmup w) {
        Copy c = new Copy(this);
        c.warmup = w;
        return c.build();
    }

    /** This config with {@code tiers} (resolved) as its CPU tier. */
    public EngineConfig withKvTiers(KvTierConfig tiers) {
        Copy c = new Copy(this);
        c.kvTiers = tiers;
        return c.build();
    }

    /** This config with speculative decoding {@code s} ({@link SpecDecodeConfig#OFF}: none). */
    public EngineConfig withSpeculative(SpecDecodeConfig s) {
        Copy c = new Copy(this);
        c.speculative = s;
        return c.build();
    }

    /** This config with the multimodal encoder's budget and cache {@code e} (null: none). */
    public EngineConfig withEncoder(EncoderBudget e) {
        Copy c = new Copy(this);
        c.encoder = e;
        return c.build();
    }

    /** A config being copied with some components changed: each starts as the original's (the with-methods). */
    private static final class Copy {
        private final int maxNumSeqs;
        private int maxNumBatchedTokens;
        private int longPrefillTokenThreshold;
        private int maxModelLen;
        private final int blockSizeTokens;
        private int totalKvBlocks;
        private final double gpuMemoryUtilization;
        private final boolean prefixCaching;
        private KvTierConfig kvTiers;
        private boolean macroSteps;
        private boolean asyncScheduling;
        private Warmup warmup;
        private SpecDecodeConfig speculative;
        private SglangConfig sglang;
        private EncoderBudget encoder;

        private Copy(EngineConfig e) {
            maxNumSeqs = e.maxNumSeqs;
            maxNumBatchedTokens = e.maxNumBatchedTokens;
            longPrefillTokenThreshold = e.longPrefillTokenThreshold;
            maxModelLen = e.maxModelLen;
            blockSizeTokens = e.blockSizeTokens;
            totalKvBlocks = e.totalKvBlocks;
            gpuMemoryUtilization = e.gpuMemoryUtilization;
            prefixCaching = e.prefixCaching;
            kvTiers = e.kvTiers;
            macroSteps = e.macroSteps;
            asyncScheduling = e.asyncScheduling;
            warmup = e.warmup;
            speculative = e.speculative;
            sglang = e.sglang;
            encoder = e.encoder;
        }

        private EngineConfig build() {
            return new EngineConfig(maxNumSeqs, maxNumBatchedTokens, longPrefillTokenThreshold, maxModelLen,
                    blockSizeTokens, totalKvBlocks, gpuMemoryUtilization, prefixCaching, kvTiers, macroSteps,
                    asyncScheduling, warmup, speculative, sglang, encoder);
        }
    }
}
