package io.servesim.engine;

import io.servesim.rng.PartitionedRng;

/**
 * One engine's speculative decoding as vLLM v1's scheduler runs it ({@code vllm/v1/core/sched/scheduler.py} at
 * vllm-project/vllm@00024d31, {@code schedule()} and {@code update_from_output()}):
 * <ul>
 *   <li><b>Scheduling</b> ({@link BatchFormer}): a running request that decodes schedules its {@code num_tokens_with_spec -
 *       num_computed_tokens} = 1 + d tokens, its next token and d = {@link #drafts} draft tokens, against the token budget
 *       (a budget too small for all of them schedules fewer drafts, as vLLM trims {@code spec_token_ids} to
 *       {@code num_scheduled_spec_tokens}), capped so the positions stay below {@code max_model_len} ({@code num_new_tokens
 *       = min(num_new_tokens, max_model_len - 1 - num_computed_tokens)}, "necessary when using spec decoding"); its KV slots
 *       are allocated for them plus {@link SpecDecodeConfig#lookaheadTokens()} ({@code allocate_slots(request,
 *       num_new_tokens, num_lookahead_tokens)}), and only the verified tokens' full blocks are cached for prefix reuse
 *       ({@code num_computed_tokens + num_new_tokens - len(spec_token_ids)}). A request proposes drafts from the step after
 *       its prefill completed (vLLM ignores the drafts of a partial prefill chunk, {@code update_draft_token_ids}); one
 *       admitted with transferred KV (P/D) decodes its first step without drafts, as it has none yet. Prefill is
 *       unchanged.</li>
 *   <li><b>Verification</b> ({@link StepExecution}): the target accepts a prefix of the d drafts ({@link #accept}) and
 *       samples one token more (the bonus or correction token), so the request gains accepted + 1 tokens, trimmed at its
 *       last token or {@code max_model_len} ({@code _update_request_with_output} stops at {@code check_stop}); the rejected
 *       drafts' slots return to the request ({@code num_computed_tokens -= num_rejected}): their blocks stay its own, as
 *       vLLM's KV cache manager never shrinks a running request's blocks, and its next step's tokens fill them.</li>
 *   <li><b>Acceptance</b>: position i is accepted with probability {@code rates[i] / rates[i-1]} once position i-1 was
 *       ({@code rates[0]} for the first), so the share of verify steps accepting position i is {@code rates[i]}, what
 *       vLLM reports as {@code vllm:spec_decode_num_accepted_tokens_per_pos / vllm:spec_decode_num_drafts}
 *       ({@code vllm/v1/spec_decode/metrics.py}); one rate alpha makes every conditional probability alpha, the i.i.d.
 *       acceptance of Leviathan et al. (2023, Sec. 3.1), whose expected tokens per step are (1 - alpha^(k+1)) / (1 -
 *       alpha). The uniforms come from the request's own counter-based stream: SplitMix64 of (run seed, request id,
 *       tokens generated so far, position), so a request's acceptances do not depend on what it is batched with, nor
 *       on the order requests are verified in.</li>
 * </ul>
 * The counters are vLLM's {@code SpecDecodingStats}: verify steps with drafts ({@code num_drafts}), draft and accepted
 * tokens.
 */
final class Speculation {
    private static final long GOLDEN = 0x9E37_79B9_7F4A_7C15L;
    private final int k;
    private final int lookahead;
    private final int maxModelLen;
    /** P(position i accepted | position i-1 accepted). */
    private final double[] conditional;
    private final long salt;
    private long verifySteps;
    private long draftTokens;
    private long acceptedTokens;

    Speculation(SpecDecodeConfig config, int maxModelLen) {
        if (!config.enabled()) {
            throw new IllegalArgumentException("speculation off");
        }
        this.k = config.k();
        this.lookahead = config.lookaheadTokens();
        this.maxModelLen = maxModelLen;
        this.conditional = new double[k];
        double before = 1;
        for (int i = 0; i < k; i++) {
            double r = config.rates().get(i);
            conditional[i] = before == 0 ? 0 : r / before;
            before = r;
        }
        this.salt = PartitionedRng.streamSeed(config.seed(), "speculative-decoding");
    }

    /** Draft tokens a decoding request with {@code computed} tokens in KV proposes: k, fewer near {@code max_model_len}. */
    int drafts(int computed) {
        return maxModelLen > 0 ? Math.max(0, Math.min(k, maxModelLen - 2 - computed)) : k;
    }

    /** KV slots reserved beyond the scheduled tokens of a decoding request. */
    int lookahead() {
        return lookahead;
    }

    /**
     * How many of the {@code drafts} draft tokens of request {@code requestId}, verified after it generated
     * {@code generated} tokens, are accepted (a prefix); counted in the step statistics.
     */
    int accept(long requestId, int generated, int drafts) {
        long stream = PartitionedRng.mix64(salt ^ PartitionedRng.mix64(requestId * GOLDEN + generated));
        int accepted = 0;
        while (accepted < drafts) {
            double u = (PartitionedRng.mix64(stream + (accepted + 1) * GOLDEN) >>> 11) * 0x1.0p-53;
            if (u >= conditional[accepted]) {
                break;
            }
            accepted++;
        }
        verifySteps++;
        draftTokens += drafts;
        acceptedTokens += accepted;
        return accepted;
    }

    /** Verify steps with at least one draft token (vLLM {@code num_drafts}). */
    long verifySteps() { return verifySteps; }
    long draftTokens() { return draftTokens; }
    long acceptedTokens() { return acceptedTokens; }
}
