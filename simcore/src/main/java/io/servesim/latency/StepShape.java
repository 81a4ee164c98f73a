package io.servesim.latency;

import java.util.Arrays;

/**
 * What one engine step computes, as a latency model sees it: the prefill chunks (new tokens and
 * the context already in the KV cache before each chunk) and the decode sequences (one new token
 * each, attending over their current context). Reused across steps: the engine {@link #clear()}s
 * it and adds sequences; nothing is allocated per step once the arrays have grown.
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

    public void clear() {
        prefillSeqs = 0;
        prefillTokens = 0;
        prefillContextTokens = 0;
        decodeSeqs = 0;
        decodeContextTokens = 0;
        decodeAdvance = 0;
    }

    /**
     * The next step of the same decode batch: every decode sequence's context grows by the token it
     * produced in this one (O(1): the offset applies on read). An engine's macro-step prices a steady
     * decode stretch step by step this way without rebuilding the shape; the prefill chunks of a step
     * that admitted requests are {@link #clearPrefills cleared} first.
     */
    public void advanceDecodes() {
        if (prefillSeqs > 0) {
            throw new IllegalStateException("advanceDecodes on a step with prefill chunks");
        }
        decodeAdvance++;
        decodeContextTokens += decodeSeqs;
    }

    /** Drops the prefill chunks, keeping the decode sequences. */
    public void clearPrefills() {
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
    /** Decode tokens in this step (one per decode sequence). */
    public long decodeTokens() { return decodeSeqs; }
    /** Sum over decode sequences of their context length. */
    public long decodeContextTokens() { return decodeContextTokens; }
    public int decodeContextTokens(int i) { return decodeContext[i] + decodeAdvance; }
    /** All tokens the step computes: prefill plus decode. */
    public long totalTokens() { return prefillTokens + decodeSeqs; }
    public int batchSize() { return prefillSeqs + decodeSeqs; }
}
