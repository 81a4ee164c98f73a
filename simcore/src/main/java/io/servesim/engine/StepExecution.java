package io.servesim.engine;

import io.servesim.kernel.EventKind;
import io.servesim.kernel.EventQueue;

/**
 * Phases 2 and 3 of an engine step formed by the {@link BatchFormer} (execute, then complete), as BLIS
 * {@code sim/simulator.go} runs vLLM v1's {@code EngineCore.step}: computed tokens advance, a token is
 * sampled for every request whose KV now covers all its tokens, and finished requests free their KV
 * blocks and leave (a P/D prefill stage keeps its blocks for its KV transfer). Token timing follows BLIS's blackbox semantics: the first token is visible at
 * step end + a2, every later one one GPU gap + a2 after the previous one (a2 never blocks the GPU).
 * Equal inter-token latencies of a step go to the observer run-length encoded.
 *
 * <p>A speculating request's verify pass ({@link Speculation}) samples accepted + 1 tokens at once: they reach the client
 * together, as one streamed chunk, so they add one inter-token latency sample (the gap since the previous chunk), as
 * vLLM's {@code benchmark_serving.py} records one ITL per streamed chunk whatever its token count; its TPOT (per token,
 * over the request) falls with them.
 */
final class StepExecution {
    private final int engineId;
    private final int maxModelLen;
    private final RunningBatch running;
    /** Frees (vLLM core) or caches (SGLang core) a finished request's KV. */
    private final java.util.function.Consumer<Request> releaseKv;
    private final EventQueue events;
    private final EngineObserver observer;
    private final long outputProcessingUs;
    /** The front end's egress: every token leaves the server this long after its sampling ({@link FrontEnd}). */
    private final long egressUs;
    /** Speculative decoding, or null when off. */
    private final Speculation speculation;
    private long pendingItlUs;
    private int pendingItlCount;
    /** P/D: blocks of prefill stages completed in a step whose PREFILL_DONE is still pending. */
    private long finishingBlocks;
    /** P/D, SGLang core: the radix-tree pages those stages' paths lock ({@link #treePages}). */
    private long finishingTreePages;
    /** The tree pages a request's path locks beside its own blocks: 0 in the vLLM core. */
    private final java.util.function.ToIntFunction<Request> treePages;

    StepExecution(int engineId, int maxModelLen, RunningBatch running, java.util.function.Consumer<Request> releaseKv,
                  java.util.function.ToIntFunction<Request> treePages, EventQueue events, EngineObserver observer,
                  long outputProcessingUs, long egressUs, Speculation speculation) {
        this.engineId = engineId;
        this.treePages = treePages;
        this.maxModelLen = maxModelLen;
        this.running = running;
        this.releaseKv = releaseKv;
        this.events = events;
        this.observer = observer;
        this.outputProcessingUs = outputProcessingUs;
        this.egressUs = egressUs;
        this.speculation = speculation;
    }

    /**
     * Phases 2 and 3: advance computed tokens, sample a token where the KV now covers every token,
     * then let requests that generated all their tokens (or reached max_model_len) free their blocks
     * and leave in batch order; survivors keep their order.
     */
    void executeAndComplete(long endUs) {
        executeFrom(0, endUs);
        completeFinished(endUs);
    }

    /**
     * Phase 2 for the slots from {@code from} on (all of them in an ordinary step; in a macro-step the
     * requests it admitted, the batch before them being the stretch's): their computed tokens advance
     * and those whose KV now covers every token sample one. Nobody leaves here:
     * {@link #completeFinished} or the stretch does that, in batch order.
     */
    void executeFrom(int from, long endUs) {
        int[] scheduled = running.newTokens;
        for (int i = from, n = running.size(); i < n; i++) {
            int newTokens = scheduled[i];
            if (newTokens > 0) {
                scheduled[i] = 0;
                int computed = running.computed[i] += newTokens;
                if (computed == running.tokens[i]) {
                    sampleTokens(i, endUs, 1);
                } else if (computed > running.tokens[i]) {
                    verify(i, computed - running.tokens[i], endUs);
                }
            }
        }
        flushItl();
    }

    /** Phase 3 alone: requests that generated all their tokens (or reached max_model_len) leave; survivors keep their order. */
    void completeFinished(long endUs) {
        int kept = 0;
        int survivorsFrom = 0;
        int n = running.size();
        for (int i = 0; i < n; i++) {
            if (running.generated[i] >= running.target[i] || running.capped[i]) {
                running.moveRange(survivorsFrom, kept, i - survivorsFrom);
                kept += i - survivorsFrom;
                survivorsFrom = i + 1;
                complete(running.sync(i), endUs);
            }
        }
        running.moveRange(survivorsFrom, kept, n - survivorsFrom);
        running.truncate(kept + n - survivorsFrom);
    }

    /**
     * {@code r}, synced and out of the batch, finished in the step that ended at {@code endUs}: it frees
     * its blocks and leaves when its last token is visible (a P/D prefill stage keeps its blocks for
     * its KV transfer instead).
     */
    void complete(Request r, long endUs) {
        boolean keepsKv = r.prefillOnly(); // P/D: the KV stays here, owned by this instance, until its transfer completes
        if (!keepsKv) {
            releaseKv.accept(r);
        }
        r.state = Request.State.COMPLETED;
        r.completionUs = r.lastTokenUs;
        if (keepsKv) {
            finishingBlocks += r.heldBlocks();
            finishingTreePages += treePages.applyAsInt(r);
            events.schedule(endUs, EventKind.PREFILL_DONE, engineId, r);
        } else {
            events.schedule(r.completionUs, EventKind.REQUEST_LEFT, engineId, r);
        }
    }

    /** P/D: blocks of prefill stages completed in a step whose PREFILL_DONE is still pending. */
    long finishingBlocks() {
        return finishingBlocks;
    }

    /** P/D: tree pages locked by prefill stages completed in a step whose PREFILL_DONE is still pending. */
    long finishingTreePages() {
        return finishingTreePages;
    }

    /** P/D: a completed prefill stage {@code b}'s PREFILL_DONE happened: its blocks and pages are the handoff's now. */
    void handedOff(Request b) {
        finishingBlocks -= b.heldBlocks();
        finishingTreePages -= treePages.applyAsInt(b);
    }

    /**
     * Slot {@code i} verified its {@code drafts} draft tokens in this step: of them the accepted prefix, and the token
     * the target sampled after it, are its new tokens (trimmed at its last token and at {@code max_model_len}); the
     * rejected drafts' KV slots return to it, its computed tokens those of its tokens but the last ({@link Speculation}).
     */
    private void verify(int i, int drafts, long endUs) {
        RunningBatch b = running;
        int accepted = speculation.accept(b.request(i).id(), b.generated[i], drafts);
        int n = Math.min(accepted + 1, b.target[i] - b.generated[i]);
        if (maxModelLen > 0) {
            n = Math.min(n, maxModelLen - b.tokens[i]);
        }
        sampleTokens(i, endUs, n);
        b.computed[i] = b.tokens[i] - 1;
    }

    /**
     * Slot {@code i} samples {@code n} tokens at the end of this step (more than one only when verifying drafts); they
     * are visible a2 later (cumulative, as BLIS), plus the front end's egress (the same for every token: later tokens
     * keep their gaps), together: one inter-token latency however many there are.
     */
    private void sampleTokens(int i, long endUs, int n) {
        RunningBatch b = running;
        if (b.generated[i] == 0) {
            long firstUs = endUs + outputProcessingUs + egressUs;
            b.request(i).firstTokenUs = firstUs;
            b.lastTokenUs[i] = firstUs;
        } else {
            long itl = (endUs - b.lastStepEndUs[i]) + outputProcessingUs;
            b.lastTokenUs[i] += itl;
            recordItl(itl);
        }
        b.lastStepEndUs[i] = endUs;
        int generated = b.generated[i] += n;
        if (generated >= b.answerAt[i] && generated - n < b.answerAt[i]) {
            b.request(i).firstAnswerTokenUs = b.lastTokenUs[i];
        }
        int tokens = b.tokens[i] += n;
        if (maxModelLen > 0 && tokens >= maxModelLen && generated < b.target[i]) {
            b.capped[i] = true;
        }
    }

    /** Run-length batches equal ITLs (every request decoding in consecutive steps shares one). */
    private void recordItl(long itlUs) {
        if (itlUs != pendingItlUs) {
            // through flushItl, whose test of an empty run is also taken at every step's end: the JIT
            // profiles one branch for both (a test of its own here was first taken in a later cell
            // and threw away the compiled step each time)
            flushItl();
            pendingItlUs = itlUs;
        }
        pendingItlCount++;
    }

    private void flushItl() {
        if (pendingItlCount > 0) {
            observer.onInterTokenLatency(pendingItlUs, pendingItlCount);
            pendingItlCount = 0;
        }
    }
}
