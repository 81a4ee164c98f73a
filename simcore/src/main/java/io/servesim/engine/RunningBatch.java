package io.servesim.engine;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The running batch of one engine in admission order (vLLM v1 {@code self.running}), with the
 * progress of each running request held in parallel primitive arrays (struct of arrays): every step
 * walks the whole batch twice (batch formation, then execution), and a decoding request's step only
 * needs a few ints and longs, so keeping them contiguous replaces a cache miss per request per step
 * with sequential reads. The {@link Request} object is the record of a request outside the batch:
 * its progress fields are loaded on {@link #add} and written back by {@link #sync} before anything
 * else reads them (KV allocation, preemption, completion, end of run).
 *
 * <p>{@code fastLimit[i]} is the largest token count slot {@code i} can reach without calling the
 * KV cache: within the request's allocated blocks, and completing no block that prefix caching
 * would register (the fast path of {@link KvCache#ensure}).
 */
final class RunningBatch {
    private final int blockSize;
    private final boolean prefixCaching;
    private Request[] reqs;
    /** Tokens whose KV is computed ({@code Request.computedTokens}). */
    int[] computed;
    /** Prompt plus generated tokens ({@link Request#numTokens()}). */
    int[] tokens;
    /** Output tokens generated so far ({@code Request.generatedTokens}). */
    int[] generated;
    /** Output tokens the request generates in total ({@link Request#targetOutputTokens()}). */
    int[] target;
    /** The generated-token count at whose sampling the first answer token appears ({@code Request.answerAt()}). */
    int[] answerAt;
    /** Tokens scheduled for the step being formed or executed. */
    int[] newTokens;
    /** Largest token count reachable without a KV cache call (see the class comment). */
    int[] fastLimit;
    /** End of the step that sampled the request's last token ({@code Request.lastStepEndUs}). */
    long[] lastStepEndUs;
    /** When the last token became visible ({@code Request.lastTokenUs}). */
    long[] lastTokenUs;
    /** Generation stopped at max_model_len ({@code Request.lengthCapped}). */
    boolean[] capped;
    private int size;

    RunningBatch(int initialCapacity, int blockSize, boolean prefixCaching) {
        this.blockSize = blockSize;
        this.prefixCaching = prefixCaching;
        int capacity = Math.max(4, initialCapacity);
        reqs = new Request[capacity];
        computed = new int[capacity];
        tokens = new int[capacity];
        generated = new int[capacity];
        target = new int[capacity];
        answerAt = new int[capacity];
        newTokens = new int[capacity];
        fastLimit = new int[capacity];
        lastStepEndUs = new long[capacity];
        lastTokenUs = new long[capacity];
        capped = new boolean[capacity];
    }

    private void grow() {
        int capacity = reqs.length * 2;
        reqs = Arrays.copyOf(reqs, capacity);
        computed = Arrays.copyOf(computed, capacity);
        tokens = Arrays.copyOf(tokens, capacity);
        generated = Arrays.copyOf(generated, capacity);
        target = Arrays.copyOf(target, capacity);
        answerAt = Arrays.copyOf(answerAt, capacity);
        newTokens = Arrays.copyOf(newTokens, capacity);
        fastLimit = Arrays.copyOf(fastLimit, capacity);
        lastStepEndUs = Arrays.copyOf(lastStepEndUs, capacity);
        lastTokenUs = Arrays.copyOf(lastTokenUs, capacity);
        capped = Arrays.copyOf(capped, capacity);
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The request in slot {@code i}; its progress fields are stale until {@link #sync}. */
    Request request(int i) {
        return reqs[i];
    }

    /** Appends {@code r} (its progress fields current) with {@code scheduled} tokens in the step being formed. */
    void add(Request r, int scheduled) {
        if (size == reqs.length) {
            grow();
        }
        int i = size++;
        reqs[i] = r;
        computed[i] = r.computedTokens;
        tokens[i] = r.numTokens();
        generated[i] = r.generatedTokens;
        target[i] = r.targetOutputTokens();
        answerAt[i] = r.answerAt();
        newTokens[i] = scheduled;
        lastStepEndUs[i] = r.lastStepEndUs;
        lastTokenUs[i] = r.lastTokenUs;
        capped[i] = r.lengthCapped;
        refreshLimit(i);
    }

    /** Recomputes slot {@code i}'s {@link #fastLimit} after a KV cache call changed its request's blocks. */
    void refreshLimit(int i) {
        Request r = reqs[i];
        int limit = r.blockTokens;
        if (prefixCaching) {
            // KvCache.ensure registers a block once registrationLimit(end) reaches the next block end.
            int nextBlockEnd = (r.registeredBlocks + 1) * blockSize;
            if (r.outputReusable() || r.sharedInputTokens() >= nextBlockEnd) {
                limit = Math.min(limit, nextBlockEnd - 1);
            }
        }
        fastLimit[i] = limit;
    }

    /** Writes slot {@code i}'s progress back to its request and returns it. */
    Request sync(int i) {
        Request r = reqs[i];
        r.computedTokens = computed[i];
        r.generatedTokens = generated[i];
        r.lastStepEndUs = lastStepEndUs[i];
        r.lastTokenUs = lastTokenUs[i];
        r.lengthCapped = capped[i];
        return r;
    }

    /** Removes slot {@code i}, its request synced; the slots behind it move up one, keeping their order. */
    Request remove(int i) {
        Request r = sync(i);
        moveRange(i + 1, i, size - i - 1);
        reqs[--size] = null;
        return r;
    }

    /** Copies the {@code count} slots from {@code from} to {@code to} (compacting a run of survivors; a block copy per array). */
    void moveRange(int from, int to, int count) {
        if (count == 0 || from == to) {
            return;
        }
        System.arraycopy(reqs, from, reqs, to, count);
        System.arraycopy(computed, from, computed, to, count);
        System.arraycopy(tokens, from, tokens, to, count);
        System.arraycopy(generated, from, generated, to, count);
        System.arraycopy(target, from, target, to, count);
        System.arraycopy(answerAt, from, answerAt, to, count);
        System.arraycopy(newTokens, from, newTokens, to, count);
        System.arraycopy(fastLimit, from, fastLimit, to, count);
        System.arraycopy(lastStepEndUs, from, lastStepEndUs, to, count);
        System.arraycopy(lastTokenUs, from, lastTokenUs, to, count);
        System.arraycopy(capped, from, capped, to, count);
    }

    /** Keeps the first {@code n} slots (callers compact survivors to the front first). */
    void truncate(int n) {
        if (n < size) {
            Arrays.fill(reqs, n, size, null);
            size = n;
        }
    }

    /** Syncs and hands every slot's request to {@code sink}, in order, and empties the batch. */
    void drain(Consumer<Request> sink) {
        for (int i = 0; i < size; i++) {
            sink.accept(sync(i));
        }
        truncate(0);
    }
}
