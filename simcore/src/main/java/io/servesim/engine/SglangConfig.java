package io.servesim.engine;

import java.util.List;

/**
 * The SGLang core's scheduler settings ({@code engine.kind: sglang}, {@link SglangSettings}), with SGLang's names and
 * defaults: {@code schedule_policy}, {@code chunked_prefill_size} and {@code max_prefill_tokens} of
 * {@code ServerArgs}, and the {@code new_token_ratio} estimate's constants ({@code SGLANG_INIT_NEW_TOKEN_RATIO} 0.7,
 * {@code SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR} 0.14, {@code SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS} 600, scaled by
 * {@code schedule_conservativeness}), as {@code NewTokenRatioTracker.from_server_args} derives them
 * (sgl-project/sglang, {@code python/sglang/srt/environ.py}; the same constants in ai-dynamo/dynamo
 * {@code lib/mocker/src/scheduler/sglang/config.rs} at 64614f31900eb7b913a59dc5a66d2177df4ec96f).
 *
 * @param policy                   the wait queue's order ({@code schedule_policy})
 * @param chunkedPrefillSize       prefill tokens per step at most; a longer prompt is prefilled in chunks
 *                                 ({@code chunked_prefill_size})
 * @param maxPrefillTokens         a prefill batch admits no further request once it holds this many tokens
 *                                 ({@code max_prefill_tokens})
 * @param initNewTokenRatio        the share of its remaining output budget each running request is assumed to still
 *                                 generate, before scaling ({@code SGLANG_INIT_NEW_TOKEN_RATIO})
 * @param minNewTokenRatioFactor   the ratio's floor, as a share of its initial value ({@code SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR})
 * @param newTokenRatioDecaySteps  decode steps over which the ratio decays linearly to its floor
 *                                 ({@code SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS})
 * @param scheduleConservativeness factor on the initial ratio ({@code schedule_conservativeness})
 */
public record SglangConfig(Policy policy, int chunkedPrefillSize, int maxPrefillTokens, double initNewTokenRatio,
                           double minNewTokenRatioFactor, int newTokenRatioDecaySteps, double scheduleConservativeness) {
    /**
     * SGLang's {@code schedule_policy} values ({@code SchedulePolicy} in {@code python/sglang/srt/managers/schedule_policy.py}
     * at 00550cd11b35def9d584bf761a1e32729c20a21d): the cache-aware {@code lpm} and {@code dfs-weight}
     * ({@code CacheAwarePolicy}) and the cache-agnostic {@code fcfs}, {@code lof} and {@code random}
     * ({@code CacheAgnosticPolicy}).
     */
    public enum Policy {
        LPM("lpm"), FCFS("fcfs"), DFS_WEIGHT("dfs-weight"), LOF("lof"), RANDOM("random");

        private final String configName;

        Policy(String configName) {
            this.configName = configName;
        }

        public String configName() {
            return configName;
        }

        /** The names the config accepts, in documentation order. */
        public static List<String> names() {
            return java.util.Arrays.stream(values()).map(Policy::configName).toList();
        }

        public static Policy of(String name) {
            for (Policy p : values()) {
                if (p.configName.equals(name)) {
                    return p;
                }
            }
            throw new IllegalArgumentException("unknown SGLang schedule_policy '" + name + "'; valid: " + names());
        }
    }

    /** SGLang's {@code SGLANG_CLIP_MAX_NEW_TOKENS_ESTIMATION}: a budget counts at most this many tokens in estimates. */
    public static final int CLIP_MAX_NEW_TOKENS = 4096;
    /** SGLang's {@code retract_decode_steps} ({@code SGLANG_RETRACT_DECODE_STEPS}): decode steps a retraction makes room for. */
    public static final int RETRACT_DECODE_STEPS = 20;
    /**
     * SGLang's defaults: {@code fcfs} ({@code ServerArgs.schedule_policy}); chunks of 8,192 tokens (what
     * {@code ServerArgs} picks for an 80 GB-class GPU, and the Dynamo mocker's default); 16,384 prefill tokens per
     * batch ({@code ServerArgs.max_prefill_tokens}); the ratio constants above; conservativeness 1.
     */
    public static final SglangConfig DEFAULTS = new SglangConfig(Policy.FCFS, 8192, 16384, 0.7, 0.14, 600, 1.0);

    public SglangConfig {
        if (policy == null || chunkedPrefillSize <= 0 || maxPrefillTokens <= 0 || !(initNewTokenRatio >= 0)
                || !(minNewTokenRatioFactor >= 0) || newTokenRatioDecaySteps <= 0 || !(scheduleConservativeness >= 0)) {
            throw new IllegalArgumentException("invalid SGLang config " + this);
        }
    }

    /** The ratio's initial value: {@code min(init_new_token_ratio x schedule_conservativeness, 1)}. */
    public double initRatio() {
        return Math.min(initNewTokenRatio * scheduleConservativeness, 1.0);
    }

    /** The ratio's floor: {@code min(initRatio x min_new_token_ratio_factor, 1)}. */
    public double minRatio() {
        return Math.min(initRatio() * minNewTokenRatioFactor, 1.0);
    }

    /** The ratio's decrease per decode step: {@code (initRatio - minRatio) / new_token_ratio_decay_steps}. */
    public double ratioDecay() {
        return (initRatio() - minRatio()) / newTokenRatioDecaySteps;
    }
}
