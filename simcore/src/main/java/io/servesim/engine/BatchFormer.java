package io.servesim.engine;

import io.servesim.latency.StepShape;

/**
 * Forms one step's batch with the vLLM v1 scheduler's two phases, as ported by BLIS
 * ({@code sim/batch_formation.go}, after {@code vllm/v1/core/sched/scheduler.py} {@code schedule()}):
 * <ol>
 *   <li><b>Continuing requests</b>, head to tail: each gets its next tokens ({@code num_tokens -
 *       num_computed_tokens}: the next prefill chunk, or one decode token), capped by
 *       {@code long_prefill_token_threshold}, the remaining token budget and {@code max_model_len}.
 *       If the KV blocks cannot be allocated, the batch tail is preempted (recompute: blocks freed,
 *       computed tokens reset, requeued at the front) until they can; a request that evicts itself
 *       ends the phase.</li>
 *   <li><b>New requests</b> from the wait queue while running &lt; {@code max_num_seqs}, budget &gt; 0,
 *       no preemption happened this step and KV allocation succeeds; prefix-cached blocks are reused
 *       and not recomputed.</li>
 * </ol>
 * Unlike BLIS (which loses generated tokens on preemption), a preempted request keeps its output
 * tokens and recomputes prompt + output on readmission, as vLLM v1 does.
 */
final class BatchFormer {
    /** What batch formation reports back to the engine. */
    interface Listener {
        void preempted(Request r, long nowUs);

        void admitted(Request r, long nowUs);

        /** {@code r} could not fit even alone in an otherwise empty cache. */
        void neverFits(Request r, long nowUs);

        /** The head {@code r} could not get KV blocks although the request behind it would have fit. */
        void headOfLineBlocked(Request r, long nowUs);
    }

    private final EngineConfig config;
    private final KvCache kv;
    private final WaitQueue waitQueue;
    private final RunningBatch running;
    private final Listener listener;

    BatchFormer(EngineConfig config, KvCache kv, WaitQueue waitQueue, RunningBatch running, Listener listener) {
        this.config = config;
        this.kv = kv;
        this.waitQueue = waitQueue;
        this.running = running;
        this.listener = listener;
    }

    void form(long nowUs, StepShape shape) {
        int budget = config.maxNumBatchedTokens();
        boolean preempted = false;
        // Phase 1: continuing requests; the bound is re-read because preemption shrinks the batch.
        for (int i = 0; i < running.size(); i++) {
            if (budget <= 0) {
                break;
            }
            Request r = running.get(i);
            int newTokens = cap(r.numTokens() - r.computedTokens, r.computedTokens, budget);
            if (newTokens <= 0) {
                continue;
            }
            boolean fits = true;
            while (!kv.ensure(r, r.computedTokens + newTokens)) {
                preempted = true;
                Request victim = running.removeLast();
                if (victim == r && running.isEmpty()) {
                    kv.release(r);
                    listener.neverFits(r, nowUs);
                    fits = false;
                    break;
                }
                preempt(victim, nowUs);
                if (victim == r) {
                    fits = false;
                    break;
                }
            }
            if (!fits) {
                break;
            }
            budget -= newTokens;
            r.newTokensThisStep = newTokens;
            addToShape(shape, r, newTokens);
        }
        // Phase 2: new requests from the wait queue.
        while (!preempted && budget > 0 && running.size() < config.maxNumSeqs() && !waitQueue.isEmpty()) {
            Request r = waitQueue.peek();
            int cachedBlocks = kv.lookupPrefix(r);
            int cachedTokens = cachedBlocks * kv.blockSize();
            int newTokens = cap(r.numTokens() - cachedTokens, cachedTokens, budget);
            if (!kv.allocateNew(r, cachedBlocks, cachedTokens + newTokens)) {
                Request next = waitQueue.peekSecond();
                if (next != null && kv.blocksFor(Math.min(next.numTokens(), budget)) <= kv.freeBlocks()) {
                    listener.headOfLineBlocked(r, nowUs);
                }
                break;
            }
            waitQueue.poll();
            running.add(r);
            r.state = Request.State.RUNNING;
            r.computedTokens = cachedTokens;
            r.prefixHitTokens = cachedTokens;
            r.newTokensThisStep = newTokens;
            budget -= newTokens;
            addToShape(shape, r, newTokens);
            listener.admitted(r, nowUs);
        }
    }

    /** Chunk size: threshold cap (chunked prefill), token budget, and the proactive max_model_len cap. */
    private int cap(int wanted, int computed, int budget) {
        int n = wanted;
        int threshold = config.longPrefillTokenThreshold();
        if (threshold > 0 && n > threshold) {
            n = threshold;
        }
        n = Math.min(n, budget);
        if (config.maxModelLen() > 0) {
            n = Math.min(n, config.maxModelLen() - computed);
        }
        return n;
    }

    private static void addToShape(StepShape shape, Request r, int newTokens) {
        boolean decode = r.generatedTokens > 0 && newTokens == 1 && r.computedTokens == r.numTokens() - 1;
        if (decode) {
            shape.addDecode(r.computedTokens);
        } else {
            shape.addPrefill(newTokens, r.computedTokens);
        }
    }

    private void preempt(Request victim, long nowUs) {
        kv.releasePreempted(victim, victim.computedTokens);
        victim.computedTokens = 0;
        victim.newTokensThisStep = 0;
        victim.preemptions++;
        victim.state = Request.State.QUEUED;
        waitQueue.addFront(victim);
        listener.preempted(victim, nowUs);
    }
}
