package io.servesim.engine;

import io.servesim.config.ConfigNode;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Speculative decoding of one engine ({@code engine.speculative}, {@link SpecDecodeSettings}), as vLLM v1 runs it: every
 * decode step each running request proposes {@code k} draft tokens, the target model verifies them in one forward pass
 * over k + 1 positions per sequence, and a prefix of them is accepted ({@link Speculation}). {@link #OFF}: none.
 *
 * @param method       who proposes the drafts ({@link Method}); null when off
 * @param k            draft tokens per step ({@code num_speculative_tokens}); 0 when off
 * @param rates        the per-position acceptance vector as vLLM reports it: {@code rates[i]} is the share of verify steps
 *                     whose position i was accepted, non-increasing (a single {@code acceptance_rate} alpha gives
 *                     alpha^(i+1)); empty when off
 * @param draftModel   the draft model of {@link Method#DRAFT} (a bundled id or a config.json path), else null
 * @param seed         the run's seed, from which every request's acceptance draws derive ({@link #seeded})
 */
public record SpecDecodeConfig(Method method, int k, List<Double> rates, String draftModel, long seed) {
    /** No speculative decoding. */
    public static final SpecDecodeConfig OFF = new SpecDecodeConfig(null, 0, List.of(), null, 0);

    /**
     * The proposers of vLLM's {@code SpeculativeConfig.method} that servesim prices. {@code lookahead}: whether the
     * scheduler reserves k more KV slots per request for the drafter's own forward passes, as vLLM's scheduler does for
     * EAGLE-style and draft-model proposers ({@code num_lookahead_tokens = num_spec_tokens} when {@code use_eagle()} or
     * {@code uses_draft_model()}, {@code vllm/v1/core/sched/scheduler.py}) and not for n-gram proposals.
     */
    public enum Method {
        DRAFT("draft", true), EAGLE("eagle", true), MTP("mtp", true), NGRAM("ngram", false);

        private final String configName;
        private final boolean lookahead;

        Method(String configName, boolean lookahead) {
            this.configName = configName;
            this.lookahead = lookahead;
        }

        public String configName() {
            return configName;
        }

        /** Whether the drafter writes KV for its drafts (k lookahead slots per request). */
        public boolean lookahead() {
            return lookahead;
        }

        static List<String> names() {
            return Arrays.stream(values()).map(Method::configName).toList();
        }

        static Method of(String name) {
            return valueOf(name.toUpperCase(Locale.ROOT));
        }
    }

    public SpecDecodeConfig {
        rates = List.copyOf(rates);
        if (method == null ? k != 0 || !rates.isEmpty() : k < 1 || rates.size() != k) {
            throw new IllegalArgumentException("invalid speculative config " + method + " k=" + k + " rates=" + rates);
        }
        for (int i = 0; i < rates.size(); i++) {
            double r = rates.get(i);
            if (!(r >= 0 && r <= 1) || i > 0 && r > rates.get(i - 1)) {
                throw new IllegalArgumentException("acceptance rates must be non-increasing in [0, 1]: " + rates);
            }
        }
        if ((method == Method.DRAFT) != (draftModel != null)) {
            throw new IllegalArgumentException("a draft model is given exactly with method draft: " + method + " " + draftModel);
        }
    }

    /** Speculation with {@code method}, {@code k} drafts and the conditional acceptance {@code alpha} at every position. */
    public static SpecDecodeConfig of(Method method, int k, double alpha, String draftModel) {
        Double[] rates = new Double[k];
        double r = 1;
        for (int i = 0; i < k; i++) {
            r *= alpha;
            rates[i] = r;
        }
        return new SpecDecodeConfig(method, k, List.of(rates), draftModel, 0);
    }

    public boolean enabled() {
        return method != null;
    }

    /** This config drawing its acceptances from the run's {@code runSeed}. */
    public SpecDecodeConfig seeded(long runSeed) {
        return enabled() ? new SpecDecodeConfig(method, k, rates, draftModel, runSeed) : this;
    }

    /** KV slots the scheduler reserves per decoding request beyond its verified tokens and drafts. */
    public int lookaheadTokens() {
        return enabled() && method.lookahead() ? k : 0;
    }

    /**
     * Binds {@code engine.speculative} at {@code s} (absent: {@link #OFF}); problems name their paths: method and
     * num_speculative_tokens required, exactly one of acceptance_rate and acceptance_rates, the latter k long and
     * non-increasing, draft_model required with method draft and refused with the others.
     */
    static SpecDecodeConfig bind(ConfigNode s) {
        if (!s.present()) {
            return OFF;
        }
        String methodName = s.get(SpecDecodeSettings.METHOD);
        Long k = s.get(SpecDecodeSettings.NUM_SPECULATIVE_TOKENS);
        Double alpha = s.get(SpecDecodeSettings.ACCEPTANCE_RATE);
        List<Double> rates = s.get(SpecDecodeSettings.ACCEPTANCE_RATES);
        String draft = s.get(SpecDecodeSettings.DRAFT_MODEL);
        boolean ok = true;
        if (methodName == null && !s.refused(SpecDecodeSettings.METHOD)) {
            s.problem(s.pathOf("method"), "required: one of " + String.join(", ", Method.names()));
            ok = false;
        }
        if (k == null && !s.refused(SpecDecodeSettings.NUM_SPECULATIVE_TOKENS)) {
            s.problem(s.pathOf("num_speculative_tokens"), "required: the draft tokens per step, an integer in [1, "
                    + SpecDecodeSettings.MAX_SPECULATIVE_TOKENS + "]");
            ok = false;
        }
        if (alpha != null && rates != null) {
            s.problem(s.pathOf("acceptance_rates"), "give acceptance_rate (one alpha for every position) or"
                    + " acceptance_rates (one per position), not both; acceptance_rate is " + alpha);
            ok = false;
        } else if (alpha == null && rates == null && !s.refused(SpecDecodeSettings.ACCEPTANCE_RATE)
                && !s.refused(SpecDecodeSettings.ACCEPTANCE_RATES)) {
            s.problem(s.pathOf("acceptance_rate"), "required (or acceptance_rates): the probability a draft token is"
                    + " accepted, in [0, 1]; vLLM logs it as 'Avg Draft acceptance rate'");
            ok = false;
        }
        if (rates != null && k != null) {
            if (rates.size() != k) {
                s.problem(s.pathOf("acceptance_rates"), "must hold num_speculative_tokens = " + k + " rates, one per draft"
                        + " position; got " + rates.size());
                ok = false;
            } else {
                for (int i = 1; i < rates.size(); i++) {
                    if (rates.get(i) > rates.get(i - 1)) {
                        s.problem(s.pathOf("acceptance_rates") + "[" + i + "]", "must be <= acceptance_rates[" + (i - 1)
                                + "] = " + rates.get(i - 1) + ", got " + rates.get(i) + ": position i is accepted only"
                                + " if position i-1 was, so the shares (as vLLM reports them) never increase");
                        ok = false;
                    }
                }
            }
        }
        Method method = methodName == null ? null : Method.of(methodName);
        if (method == Method.DRAFT && draft == null) {
            s.problem(s.pathOf("draft_model"), "required with method draft: a bundled model id or the path of a"
                    + " config.json (the smaller model that proposes the drafts)");
            ok = false;
        } else if (method != null && method != Method.DRAFT && draft != null) {
            s.problem(s.pathOf("draft_model"), "applies only to method draft; method " + methodName + " proposes"
                    + " without a draft model (" + (method == Method.NGRAM ? "prompt lookup" : "a head of the target")
                    + "); remove it");
            ok = false;
        }
        s.finish();
        if (!ok || method == null || k == null || alpha == null && rates == null) {
            return OFF;
        }
        int n = Math.toIntExact(k);
        return rates != null ? new SpecDecodeConfig(method, n, rates, draft, 0) : of(method, n, alpha, draft);
    }

    @Override
    public String toString() {
        return enabled() ? method.configName() + " k=" + k + " rates=" + rates + (draftModel == null ? "" : " draft=" + draftModel)
                : "off";
    }
}
