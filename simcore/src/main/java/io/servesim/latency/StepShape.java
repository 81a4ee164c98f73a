package io.servesim.latency;

import java.util.Arrays;

/**
 * What one engine step computes, as a latency model sees it: the prefill chunks (new tokens and
 * the context already in the KV cache before each chunk) and the decode sequences (one new token
 * each, attending over their current context). Reused across steps: the engine {@link #clear()}s
 * it and adds sequences; nothing is allocated per step once the arrays have grown.
 *
 * <p>With speculative decoding a decode sequence may also verify d draft tokens ({@link #addVerify}): it then computes
 * 1 + d query tokens over its context in the same forward pass (vLLM v1 schedules them as the request's
 * {@code num_tokens_with_spec - num_computed_tokens}), which {@link #decodeTokens()} and {@link #totalTokens()} count,
 * and the target's logits are computed at each of them ({@link #logitRows()}).
 *
 * <p>A step whose prefill chunks reach image, audio or video items first runs the multimodal encoder over the items not
 * yet encoded ({@link #addEncoderItems}): vLLM's model runner executes the scheduled encoder inputs before the decoder's
 * forward pass in the same step ({@code _execute_mm_encoder} in {@code vllm/v1/worker/gpu_model_runner.py}).
 */
public final class StepShape {
    private int prefillSeqs;
    private long prefillTokens;
    private long prefillContextTokens;
    private int[] prefillNew = new int[16];
    private int[] prefillContext = new int[16];
    private int decodeSeqs;
    private long decodeContextTokens;
    private int[] decodeContext = new int[16];
    /** Tokens every decode sequence gained since it was added ({@link #advanceDecodes()}). */
    private int decodeAdvance;
    /** Draft tokens verified by the decode sequences ({@link #addVerify}). */
    private long draftTokens;
    /** Causal (query, key) pairs of the drafts beyond one query per verifying sequence ({@link #addVerify}). */
    private long draftPairs;
    /** Encoder tokens of the items encoded in this step ({@link #addEncoderItems}). */
    private long encoderTokens;
    private int encoderItems;

    public void clear() {
        encoderTokens = 0;
        encoderItems = 0;
        prefillSeqs = 0;
        prefillTokens = 0;
        prefillContextTokens = 0;
        decodeSeqs = 0;
        decodeContextTokens = 0;
        decodeAdvance = 0;
        draftTokens = 0;
        draftPairs = 0;
    }

    /**
     * The next step of the same decode batch: every decode sequence's context grows by the token it
     * produced in this one (O(1): the offset applies on read). An engine's macro-step prices a steady
     * decode stretch step by step this way without rebuilding the shape; the prefill chunks of a step
     * that admitted requests are {@link #clearPrefills cleared} first.
     */
    public void advanceDecodes() {
        if (prefillSeqs > 0 || draftTokens > 0) {
            throw new IllegalStateException("advanceDecodes on a step with prefill chunks or draft tokens");
        }
        decodeAdvance++;
        decodeContextTokens += decodeSeqs;
    }

    /** Drops the prefill chunks and the encoder items they needed, keeping the decode sequences. */
    public void clearPrefills() {
        encoderTokens = 0;
        encoderItems = 0;
        prefillSeqs = 0;
        prefillTokens = 0;
        prefillContextTokens = 0;
    }

    /** A prefill chunk of {@code newTokens} tokens on top of {@code contextTokens} already cached/computed. */
    public void addPrefill(int newTokens, int contextTokens) {
        if (prefillSeqs == prefillNew.length) {
            prefillNew = Arrays.copyOf(prefillNew, prefillSeqs * 2);
            prefillContext = Arrays.copyOf(prefillContext, prefillSeqs * 2);
        }
        prefillNew[prefillSeqs] = newTokens;
        prefillContext[prefillSeqs] = contextTokens;
        prefillSeqs++;
        prefillTokens += newTokens;
        prefillContextTokens += contextTokens;
    }

    /**
     * A decode sequence producing one token while attending over {@code contextTokens} (KV length
     * before this token); after {@link #advanceDecodes} too, as it is in the step being priced.
     */
    public void addDecode(int contextTokens) {
        if (decodeSeqs == decodeContext.length) {
            decodeContext = Arrays.copyOf(decodeContext, decodeSeqs * 2);
        }
        decodeContext[decodeSeqs++] = contextTokens - decodeAdvance; // the offset applies on read
        decodeContextTokens += contextTokens;
    }

    /**
     * A decode sequence over {@code contextTokens} that also verifies {@code drafts} draft tokens: 1 + d query tokens, the
     * j-th attending over context + j keys, so (1 + d) x context + (1 + d)(2 + d) / 2 causal pairs and context + 1 + d
     * tokens of KV read.
     */
    public void addVerify(int contextTokens, int drafts) {
        addDecode(contextTokens);
        draftTokens += drafts;
        long q = 1L + drafts;
        draftPairs += (long) drafts * contextTokens + q * (q + 1) / 2 - 1;
    }

    /** {@code items} items of {@code tokens} encoder tokens in all that the encoder runs in this step. */
    public void addEncoderItems(int items, long tokens) {
        encoderItems += items;
        encoderTokens += tokens;
    }

    /** Encoder tokens this step runs (0 without multimodal items). */
    public long encoderTokens() { return encoderTokens; }
    /** Items this step encodes. */
    public int encoderItems() { return encoderItems; }

    /** Sequences with a prefill chunk in this step. */
    public int prefillSeqs() { return prefillSeqs; }
    /** New prompt tokens computed in this step (sum of chunk sizes). */
    public long prefillTokens() { return prefillTokens; }
    /** Sum over prefill chunks of the tokens already in KV before the chunk. */
    public long prefillContextTokens() { return prefillContextTokens; }
    public int prefillNewTokens(int i) { return prefillNew[i]; }
    public int prefillContextTokens(int i) { return prefillContext[i]; }
    /** Sequences decoding one token in this step. */
    public int decodeSeqs() { return decodeSeqs; }
    /** Decode tokens in this step: one per decode sequence, plus the draft tokens they verify. */
    public long decodeTokens() { return decodeSeqs + draftTokens; }
    /** Draft tokens the decode sequences verify ({@link #addVerify}); 0 without speculative decoding. */
    public long draftTokens() { return draftTokens; }
    /**
     * The decode sequences' causal (query, key) pairs beyond one query each: what their drafts add to
     * {@link #decodeContextTokens()} + {@link #decodeSeqs()} (0 without speculative decoding).
     */
    public long draftPairs() { return draftPairs; }
    /** Rows of the LM head: each sequence's last token, and every draft token (vLLM's rejection sampler needs their logits). */
    public long logitRows() { return prefillSeqs + decodeSeqs + draftTokens; }
    /** Sum over decode sequences of their context length. */
    public long decodeContextTokens() { return decodeContextTokens; }
    public int decodeContextTokens(int i) { return decodeContext[i] + decodeAdvance; }
    /** All tokens the step computes: prefill plus decode (drafts included). */
    public long totalTokens() { return prefillTokens + decodeSeqs + draftTokens; }
    public int batchSize() { return prefillSeqs + decodeSeqs; }
}
