package io.servesim.engine;

import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import java.util.List;

/**
 * The {@code engine.speculative:} settings (also under {@code deployment.pd.<pool>.engine.speculative:}): vLLM's
 * {@code --speculative-config} ({@code SpeculativeConfig} of {@code vllm/config/speculative.py}: {@code method},
 * {@code num_speculative_tokens}, {@code model}) plus the acceptance a simulator must be told, which vLLM measures
 * ({@code vllm:spec_decode_num_accepted_tokens_per_pos}, {@code vllm/v1/spec_decode/metrics.py}). Absent: no
 * speculation ({@link SpecDecodeConfig}).
 */
public final class SpecDecodeSettings {
    /** Most draft tokens per step: beyond 16 the expected gain is under alpha^16 of a token per step (< 3% at alpha 0.8). */
    public static final int MAX_SPECULATIVE_TOKENS = 16;

    public static final Setting<String> METHOD = Setting.derived("engine.speculative.method",
            ValueType.choice(SpecDecodeConfig.Method.names(), "speculative method"), "required in a speculative block",
            "Who proposes the draft tokens: draft (a smaller model, draft_model), eagle (an EAGLE head: one decoder layer"
                    + " over the target's features), mtp (the model's own multi-token-prediction layer, DeepSeek-V3) or"
                    + " ngram (prompt lookup on the CPU); vLLM's speculative_config method.");
    public static final Setting<Long> NUM_SPECULATIVE_TOKENS = Setting.derived("engine.speculative.num_speculative_tokens",
            ValueType.integer(1, MAX_SPECULATIVE_TOKENS).in("tokens", "beyond 16 the expected gain is under alpha^16 of a"
                    + " token per step, under 3% at alpha 0.8"),
            "required in a speculative block", "Draft tokens k each decoding request proposes per step (vLLM"
                    + " num_speculative_tokens); the verify pass computes k + 1 tokens per sequence.");
    public static final Setting<Double> ACCEPTANCE_RATE = Setting.derived("engine.speculative.acceptance_rate",
            ValueType.real(0, 1).in("", "a probability"), "one of acceptance_rate or acceptance_rates is required",
            "alpha: each draft position is accepted with probability alpha once the one before it was (the i-th with"
                    + " alpha^i overall); expected tokens per verify step (1 - alpha^(k+1)) / (1 - alpha).");
    public static final Setting<List<Double>> ACCEPTANCE_RATES = Setting.derived("engine.speculative.acceptance_rates",
            ValueType.list(ValueType.real(0, 1).in("", "a probability")),
            "one of acceptance_rate or acceptance_rates is required",
            "k shares, non-increasing: of the verify steps, those whose draft position i was accepted, as vLLM reports"
                    + " them (vllm:spec_decode_num_accepted_tokens_per_pos / vllm:spec_decode_num_drafts); position i is"
                    + " accepted with probability rates[i] / rates[i-1] once position i-1 was.");
    public static final Setting<String> DRAFT_MODEL = Setting.derived("engine.speculative.draft_model", ValueType.text(),
            "required with method draft, refused otherwise",
            "The draft model of method draft: a bundled model id or the path of a config.json; it runs on the target's"
                    + " GPUs at the target's TP, its weights and KV taken from the target's KV cache (vLLM"
                    + " speculative_config model).");

    /** Every speculative setting, in documentation order. */
    public static final List<Setting<?>> ALL = List.of(METHOD, NUM_SPECULATIVE_TOKENS, ACCEPTANCE_RATE, ACCEPTANCE_RATES,
            DRAFT_MODEL);

    private SpecDecodeSettings() {
    }
}
