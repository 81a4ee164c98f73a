package io.servesim.disagg;

import java.util.Arrays;
import java.util.List;

/**
 * Whether a request's prefill runs on the prefill pool ({@code remote}: its KV then moves to a decode
 * instance) or together with its decode on the decode pool ({@code local}: an aggregated request
 * there). {@code prefix-threshold} is NVIDIA Dynamo's conditional disaggregation
 * ({@code lib/llm/src/disagg_router.rs}, {@code DisaggregatedRouter::prefill_remote}: remote when
 * {@code prefill_length - prefix_hit_length > max_local_prefill_length}, default 1000), the uncached
 * part measured at the prefill instance the prefill router picks (as Dynamo's {@code PrefillRouter}
 * scores prefill workers by their KV overlap); vLLM's P/D connectors let a proxy make the same choice.
 */
public enum PdDecider {
    /** Every request's prefill runs on the prefill pool. */
    ALWAYS("always"),
    /** No request is disaggregated: the decode pool serves everything as an aggregated fleet. */
    NEVER("never"),
    /** Remote only when the prompt's uncached part exceeds {@code prefix_threshold_tokens} ({@link PdSettings}). */
    PREFIX_THRESHOLD("prefix-threshold");

    private final String configName;

    PdDecider(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    /** Config names, in declaration order (help and error messages list them). */
    public static List<String> names() {
        return Arrays.stream(values()).map(PdDecider::configName).toList();
    }

    public static PdDecider of(String configName) {
        for (PdDecider d : values()) {
            if (d.configName.equals(configName)) {
                return d;
            }
        }
        throw new IllegalArgumentException("unknown P/D decider " + configName);
    }

    /** Remote prefill for a prompt with {@code uncachedTokens} not cached at the chosen prefill instance. */
    boolean remote(int uncachedTokens, int thresholdTokens) {
        return switch (this) {
            case ALWAYS -> true;
            case NEVER -> false;
            case PREFIX_THRESHOLD -> uncachedTokens > thresholdTokens;
        };
    }
}
