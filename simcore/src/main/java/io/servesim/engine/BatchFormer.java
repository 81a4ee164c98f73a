package io.servesim.engine;

import io.servesim.latency.StepShape;
import java.util.Comparator;

/**
 * Forms one step's batch with the vLLM v1 scheduler's two phases, as ported by BLIS
 * ({@code sim/batch_formation.go}, after {@code vllm/v1/core/sched/scheduler.py} {@code schedule()}):
 * <ol>
 *   <li><b>Continuing requests</b>, head to tail: each gets its next tokens ({@code num_tokens -
 *       num_computed_tokens}: the next prefill chunk, or one decode token), capped by
 *       {@code long_prefill_token_threshold}, the remaining token budget and {@code max_model_len}.
 *       If the KV blocks cannot be allocated, a victim is preempted (recompute: blocks freed,
 *       computed tokens reset, requeued at the front) until they can; a request that evicts itself
 *       ends the phase. The victim is vLLM's: under FCFS the batch tail ({@code self.running.pop()}),
 *       under any other scheduling policy the running request that policy would serve last, the
 *       maximum of its wait-queue order (vLLM's PRIORITY policy takes {@code max(self.running,
 *       key=lambda r: (r.priority, r.arrival_time))}, the last of its queue order; here
 *       {@code priority-fcfs}: the lowest priority score, then the latest enqueued; {@code sjf}: the
 *       longest prompt; {@code reverse-priority}: the highest score). A victim already scheduled
 *       earlier in the step is unscheduled first: its tokens return to the budget and it leaves the
 *       step's shape, as vLLM removes it from {@code scheduled_running_reqs} and refunds
 *       {@code token_budget}.</li>
 *   <li><b>New requests</b> from the wait queue while running &lt; {@code max_num_seqs}, budget &gt; 0,
 *       no preemption happened this step and KV allocation succeeds; prefix-cached blocks are reused
 *       and not recomputed.</li>
 * </ol>
 * Unlike BLIS (which loses generated tokens on preemption), a preempted request keeps its output
 * tokens and recomputes prompt + output on readmission, as vLLM v1 does.
 *
 * <p>With a CPU tier and {@code kv_reload: blocking}, a new request whose prefix continues in the CPU
 * tier gets GPU blocks for its hits only and leaves the queue until the reload completes
 * ({@link Listener#reloading}), as vLLM's scheduler parks {@code WAITING_FOR_REMOTE_KVS} requests
 * (blocks allocated for the external tokens, {@code load_kv_async}). Unlike vLLM, it then frees
 * them (cached, most recently used) and returns to the front, so its next admission hits them on
 * the GPU: a waiting request never holds blocks, which keeps the engine free of the deadlock where
 * queued requests hold the blocks the head needs.
 *
 * <p>With speculative decoding ({@link Speculation}), a continuing request that decodes schedules its next token and its
 * draft tokens, with KV slots for them and the drafter's lookahead; the step's shape verifies them.
 *
 * <p>With multimodal requests ({@link EncoderInputs}), each request's chunk is cut where the encoder cannot take an item
 * this step, before its KV is allocated, as vLLM's scheduler calls {@code _try_schedule_encoder_inputs} for running and
 * waiting requests alike: a running request so cut to nothing is skipped, a waiting one ends phase 2.
 */
final class BatchFormer implements StepFormer {
    /** What batch formation reports back to the engine. */
    interface Listener {
        void preempted(Request r, long nowUs);

        void admitted(Request r, long nowUs);

        /** {@code r} could not fit even alone in an otherwise empty cache. */
        void neverFits(Request r, long nowUs);

        /** The head {@code r} could not get KV blocks although the request behind it would have fit. */
        void headOfLineBlocked(Request r, long nowUs);

        /** {@code r} left the queue holding its blocks until its CPU-tier reload completes at {@code readyUs}. */
        void reloading(Request r, long readyUs, long nowUs);
    }

    private final EngineConfig config;
    private final KvCache kv;
    private final WaitQueue waitQueue;
    private final RunningBatch running;
    private final Listener listener;
    private final boolean blockingReload;
    /** Speculative decoding, or null when off. */
    private final Speculation speculation;
    /** The multimodal encoder's scheduling, or null when no request carries items. */
    private final EncoderInputs encoder;
    /** The scheduling policy's wait-queue order (its maximum is the preemption victim), or null for FCFS. */
    private final Comparator<Request> order;
    /** Tokens left in the step being formed (vLLM {@code token_budget}). */
    private int budget;
    /** A request was preempted in the step being formed (then no new request is admitted). */
    private boolean preempted;

    BatchFormer(EngineConfig config, KvCache kv, WaitQueue waitQueue, RunningBatch running,
                Comparator<Request> order, Speculation speculation, EncoderInputs encoder, Listener listener) {
        this.config = config;
        this.encoder = encoder;
        this.speculation = speculation;
        this.order = order;
        this.kv = kv;
        this.waitQueue = waitQueue;
        this.running = running;
        this.listener = listener;
        this.blockingReload = config.kvTiers().enabled() && config.kvTiers().reload() == KvTierConfig.Reload.BLOCKING;
    }

    @Override
    public void form(long nowUs, StepShape shape) {
        budget = config.maxNumBatchedTokens();
        preempted = false;
        startStep();
        // Phase 1: continuing requests; the bound is re-read because preemption shrinks the batch
        // (it never grows here, so the slot arrays stay the same).
        int[] computed = running.computed;
        int[] tokens = running.tokens;
        int[] generated = running.generated;
        int[] scheduled = running.newTokens;
        int[] fastLimit = running.fastLimit;
        for (int i = 0; i < running.size(); i++) {
            if (budget <= 0) {
                break;
            }
            int done = computed[i];
            int wanted = tokens[i] - done;
            int ahead = 0;
            if (speculation != null && wanted == 1 && generated[i] > 0) {
                // a decoding request verifies its drafts: they are scheduled tokens; the drafter's lookahead is KV only
                wanted += speculation.drafts(done);
                ahead = speculation.lookahead();
            }
            int newTokens = cap(wanted, done, budget);
            Request media = encoder == null ? null : itemsAhead(running.request(i), done);
            if (media != null) {
                newTokens = encoder.plan(media, done, newTokens);
            }
            if (newTokens <= 0) {
                continue;
            }
            if (done + newTokens + ahead > fastLimit[i]) {
                // only the verified tokens' full blocks are cached (a speculating request's drafts are not)
                i = allocate(i, done + newTokens + ahead, Math.min(done + newTokens, tokens[i]), nowUs, shape);
                if (i < 0) {
                    break;
                }
            }
            budget -= newTokens;
            scheduled[i] = newTokens;
            addToShape(shape, generated[i], done, tokens[i], newTokens);
            if (media != null) {
                encoder.commit(media, done, newTokens, shape);
            }
        }
        // Phase 2: new requests from the wait queue.
        if (!preempted) {
            admitWaiting(nowUs, shape, budget);
        }
    }

    /**
     * Phase 2 alone, after a phase 1 that preempted nobody and left {@code tokenBudget} tokens: admits
     * requests from the head of the wait queue while the budget, {@code max_num_seqs} and the KV
     * cache allow, appending each to the running batch and its chunk to {@code shape}. A macro-step
     * ({@link DecodeStretch}) runs it after its own phase 1.
     */
    void admitWaiting(long nowUs, StepShape shape, int tokenBudget) {
        budget = tokenBudget;
        while (budget > 0 && running.size() < config.maxNumSeqs() && !waitQueue.isEmpty()) {
            Request r = waitQueue.peek();
            if (r.kvResident) {
                admitWithKv(r, nowUs, shape);
                continue;
            }
            int cachedBlocks = kv.lookupPrefix(r);
            int cachedTokens = cachedBlocks * kv.blockSize();
            if (blockingReload && kv.lastLookupCpuHits() > 0) {
                if (!kv.allocateNew(r, cachedBlocks, cachedTokens)) {
                    blocked(r, budget, nowUs);
                    break;
                }
                waitQueue.poll();
                r.computedTokens = cachedTokens;
                r.prefixHitTokens = cachedTokens;
                listener.reloading(r, kv.lastReloadEndUs(), nowUs);
                continue;
            }
            int newTokens = cap(r.numTokens() - cachedTokens, cachedTokens, budget);
            Request media = encoder == null ? null : itemsAhead(r, cachedTokens);
            if (media != null) {
                newTokens = encoder.plan(media, cachedTokens, newTokens);
                if (newTokens <= 0) {
                    encoder.abandon(media);
                    break;
                }
            }
            if (!kv.allocateNew(r, cachedBlocks, cachedTokens + newTokens)) {
                if (media != null) {
                    encoder.abandon(media);
                }
                blocked(r, budget, nowUs);
                break;
            }
            waitQueue.poll();
            r.state = Request.State.RUNNING;
            r.computedTokens = cachedTokens;
            r.prefixHitTokens = cachedTokens;
            if (r.reloadedTokens > 0) {
                kv.uncountRepeatedLookup(r, cachedTokens);
            }
            r.countAdmissionHits();
            running.add(r, newTokens);
            budget -= newTokens;
            addToShape(shape, r.generatedTokens, cachedTokens, r.numTokens(), newTokens);
            if (media != null) {
                encoder.commit(media, cachedTokens, newTokens, shape);
            }
            listener.admitted(r, nowUs);
        }
    }

    /** A step is being formed: encoder outputs computed past in the step before are freed, the encoder budget refilled. */
    void startStep() {
        if (encoder != null) {
            encoder.startStep();
        }
    }

    /** {@code r} when its prompt has items ending after its first {@code computed} tokens, else null (nothing to encode). */
    private static Request itemsAhead(Request r, int computed) {
        MediaItems m = r.media();
        return m != null && computed < m.end() ? r : null;
    }

    /**
     * P/D: admits {@code r}, whose prompt KV was transferred into blocks it already holds (reserved for
     * its prompt and first output token, so nothing is allocated); its next token is a decode step.
     */
    private void admitWithKv(Request r, long nowUs, StepShape shape) {
        waitQueue.poll();
        int computed = r.computedTokens;
        int newTokens = cap(r.numTokens() - computed, computed, budget);
        if (!kv.ensure(r, computed + newTokens)) {
            throw new IllegalStateException("a request admitted with its transferred KV needed new blocks: " + r);
        }
        r.state = Request.State.RUNNING;
        running.add(r, newTokens);
        budget -= newTokens;
        addToShape(shape, r.generatedTokens, computed, r.numTokens(), newTokens);
        listener.admitted(r, nowUs);
    }

    /** The head {@code r} got no KV blocks: head-of-line blocking if the request behind it would have fit. */
    private void blocked(Request r, int budget, long nowUs) {
        Request next = waitQueue.peekSecond();
        if (next != null && kv.blocksFor(Math.min(next.numTokens(), budget)) <= kv.freeBlocks()) {
            listener.headOfLineBlocked(r, nowUs);
        }
    }

    /**
     * Slow path of phase 1: slot {@code i} needs KV for tokens up to {@code endToken} beyond what it
     * holds, those below {@code verifiedEnd} cached for prefix reuse ({@link KvCache#ensure(Request, int, int)}).
     * Preempts {@link #victimSlot victims} until the allocation succeeds; returns the request's slot then
     * (lower than {@code i} when victims ahead of it left the batch), or -1 when the request itself was
     * preempted or can never fit (it is then gone from the batch).
     */
    private int allocate(int i, int endToken, int verifiedEnd, long nowUs, StepShape shape) {
        Request r = running.sync(i);
        int slot = i;
        while (!kv.ensure(r, endToken, verifiedEnd)) {
            preempted = true;
            int v = victimSlot();
            if (v == slot && running.size() == 1) {
                running.remove(slot);
                kv.release(r);
                releaseEncoderInputs(r);
                listener.neverFits(r, nowUs);
                return -1;
            }
            if (v < slot) {
                budget += running.newTokens[v];
                running.newTokens[v] = 0;
                if (encoder != null && running.request(v).media() != null) {
                    encoder.unscheduled(running.request(v));
                }
            }
            Request victim = running.remove(v);
            preempt(victim, nowUs);
            if (v == slot) {
                return -1;
            }
            if (v < slot) {
                slot--;
                reshape(shape, slot);
            }
        }
        running.refreshLimit(slot);
        return slot;
    }

    /**
     * The running request to preempt: the tail under FCFS, else the request the scheduling order
     * ranks last (see the class comment). Orders are total (ties fall back to enqueue order).
     */
    private int victimSlot() {
        int last = running.size() - 1;
        if (order == null) {
            return last;
        }
        int victim = last;
        for (int k = last - 1; k >= 0; k--) {
            if (order.compare(running.request(k), running.request(victim)) > 0) {
                victim = k;
            }
        }
        return victim;
    }

    /** Rebuilds the step's shape from the slots before {@code end} after a scheduled victim left it. */
    private void reshape(StepShape shape, int end) {
        shape.clear();
        for (int k = 0; k < end; k++) {
            int newTokens = running.newTokens[k];
            if (newTokens > 0) {
                addToShape(shape, running.generated[k], running.computed[k], running.tokens[k], newTokens);
                if (encoder != null && running.request(k).media() != null) {
                    encoder.readd(running.request(k), shape);
                }
            }
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

    /**
     * A decode step samples one token for a request whose KV covers all but its last token; with more tokens scheduled
     * than that, the others are its drafts, verified in the same pass.
     */
    private static void addToShape(StepShape shape, int generated, int computed, int tokens, int newTokens) {
        if (generated > 0 && computed == tokens - 1) {
            if (newTokens == 1) {
                shape.addDecode(computed);
            } else {
                shape.addVerify(computed, newTokens - 1);
            }
        } else {
            shape.addPrefill(newTokens, computed);
        }
    }

    /** {@code r} left the running batch: its references to encoder outputs go (vLLM frees them on preemption). */
    void releaseEncoderInputs(Request r) {
        if (encoder != null && r.media() != null) {
            encoder.release(r);
        }
    }

    private void preempt(Request victim, long nowUs) {
        kv.releasePreempted(victim, victim.computedTokens);
        releaseEncoderInputs(victim);
        victim.computedTokens = 0;
        victim.preemptions++;
        victim.state = Request.State.QUEUED;
        waitQueue.addFront(victim);
        listener.preempted(victim, nowUs);
    }
}
