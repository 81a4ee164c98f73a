package io.servesim.engine;

import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import java.util.List;

/**
 * The {@code engine:} settings of the SGLang core ({@code engine.kind: sglang}; refused with the vLLM core), with
 * SGLang's names and defaults ({@link SglangConfig}: {@code ServerArgs} of sgl-project/sglang
 * {@code python/sglang/srt/server_args.py} and the scheduler constants of {@code python/sglang/srt/environ.py}).
 */
public final class SglangSettings {
    public static final Setting<String> SCHEDULE_POLICY = Setting.of("engine.schedule_policy",
            ValueType.choice(SglangConfig.Policy.names(), "SGLang schedule_policy"), "fcfs",
            "The SGLang core's wait-queue order (SGLang schedule_policy): lpm (longest prefix match first; fcfs while more"
                    + " than 128 wait), dfs-weight (depth-first over the radix tree, heavier subtrees first), fcfs, lof"
                    + " (longest output budget first), random.")
            .flag("--schedule-policy");
    public static final Setting<Long> PAGE_SIZE = Setting.of("engine.page_size",
            ValueType.integer(1, 128).in("tokens", null), 1L,
            "Tokens per KV page of the SGLang core (SGLang page_size; 1: a token-level radix tree). Replaces block_size.")
            .flag("--page-size");
    public static final Setting<Long> CHUNKED_PREFILL_SIZE = Setting.of("engine.chunked_prefill_size",
            ValueType.integer(1, 1 << 24).in("tokens", null), (long) SglangConfig.DEFAULTS.chunkedPrefillSize(),
            "Prefill tokens per step at most in the SGLang core; a longer prompt is prefilled in chunks (SGLang"
                    + " chunked_prefill_size, 8192 on an 80 GB-class GPU).")
            .flag("--chunked-prefill-size");
    public static final Setting<Long> MAX_PREFILL_TOKENS = Setting.of("engine.max_prefill_tokens",
            ValueType.integer(1, 1 << 24).in("tokens", null), (long) SglangConfig.DEFAULTS.maxPrefillTokens(),
            "A prefill batch of the SGLang core admits no further request once it holds this many tokens (SGLang"
                    + " max_prefill_tokens).");
    public static final Setting<Double> INIT_NEW_TOKEN_RATIO = Setting.of("engine.init_new_token_ratio",
            ValueType.real(0, 1).in("", "a share of a request's remaining output budget"),
            SglangConfig.DEFAULTS.initNewTokenRatio(),
            "Share of its remaining output budget each running request is assumed to still need when the SGLang core"
                    + " admits new requests, at start and after idle (SGLANG_INIT_NEW_TOKEN_RATIO).");
    public static final Setting<Double> MIN_NEW_TOKEN_RATIO_FACTOR = Setting.of("engine.min_new_token_ratio_factor",
            ValueType.real(0, 1).in("", "a share of the initial ratio"), SglangConfig.DEFAULTS.minNewTokenRatioFactor(),
            "The new-token ratio's floor as a share of its initial value (SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR).");
    public static final Setting<Long> NEW_TOKEN_RATIO_DECAY_STEPS = Setting.of("engine.new_token_ratio_decay_steps",
            ValueType.integer(1, 1 << 24).in("steps", null), (long) SglangConfig.DEFAULTS.newTokenRatioDecaySteps(),
            "Decode steps over which the new-token ratio falls linearly to its floor (SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS).");
    public static final Setting<Double> SCHEDULE_CONSERVATIVENESS = Setting.of("engine.schedule_conservativeness",
            ValueType.real(0, 100).in("x", "a factor on the initial new-token ratio (capped at 1)"),
            SglangConfig.DEFAULTS.scheduleConservativeness(),
            "Factor on the initial new-token ratio: above 1 admits fewer requests, below 1 more (SGLang"
                    + " schedule_conservativeness).");

    /** Every SGLang-only engine setting, in documentation order. */
    public static final List<Setting<?>> ALL = List.of(SCHEDULE_POLICY, PAGE_SIZE, CHUNKED_PREFILL_SIZE, MAX_PREFILL_TOKENS,
            INIT_NEW_TOKEN_RATIO, MIN_NEW_TOKEN_RATIO_FACTOR, NEW_TOKEN_RATIO_DECAY_STEPS, SCHEDULE_CONSERVATIVENESS);

    private SglangSettings() {
    }
}
