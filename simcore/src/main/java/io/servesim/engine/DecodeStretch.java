package io.servesim.engine;

import io.servesim.latency.StepShape;

/**
 * Macro-steps: the steps of a steady decode stretch of one engine, each at O(1) plus the requests
 * that reach a KV block boundary in it, instead of O(running requests). Between two steps that
 * change a batch, vLLM v1's scheduler ({@code vllm/v1/core/sched/scheduler.py} {@code schedule()},
 * as {@link BatchFormer} ports it) gives every running request exactly one decode token, and the
 * execution samples one token for each: every request's computed, total and generated token counts
 * grow by one per step, every inter-token latency of a step is its step time plus the output
 * processing time (a2), and the latency model sees the same decode batch with each context one token
 * longer ({@link StepShape#advanceDecodes()}). So the running batch's per-request arrays keep their
 * values from the stretch's start and one offset of steps, one sum of ITLs and one last step end
 * stand for all of them ({@link #end} writes them back).
 *
 * <p>A step is steady when, at its start, every running request decodes (its KV covers all but its
 * last token, it has sampled a token, and it did so at the end of the previous step), the batch fits
 * the token budget, and no request reaches {@code max_model_len} in it. Requests that sample their
 * last token in a steady step leave after it exactly as after an ordinary step ({@link #complete}),
 * and the stretch goes on over the rest of the batch. Requests waiting are admitted in a steady step
 * by the batch former's own phase 2 ({@link BatchFormer#admitWaiting}) with the budget the decodes
 * leave, as vLLM schedules new requests after the running ones; they execute after the stretch's
 * members and join it if they will decode in the next step ({@link #absorbAdmitted}), else the
 * stretch ends with that step. KV block
 * boundaries (a request needing a new block, or a full block to register for prefix caching) stay
 * inside a stretch: the requests due are looked up in a ring of buckets by the step they become due
 * at and get exactly the KV call the batch former would make, in batch order; when the free blocks
 * cannot cover all of that step's new blocks (a preemption could follow), the step is formed the
 * ordinary way instead. A request whose first answer token (the token after its reasoning tokens,
 * {@link Request#setReasoningTokens}) falls in a stretch gets its time exactly: the step in which it samples it is known
 * from its counters, and the time is its last-token time plus the ITL sum at that step ({@link #executed}). Everything else (metrics, observers, events) sees the same steps at the same
 * times, so a run's rows are the same with or without macro-steps ({@code MacroStepEquivalenceTest}).
 */
final class DecodeStretch {
    private final RunningBatch running;
    private final KvCache kv;
    private final int maxBatchedTokens;
    private final int maxModelLen;
    private final StepShape shape = new StepShape();
    private final int ringMask;
    /** First slot due at each ring position (-1: none); slots due at the same position chain through {@link #nextDue}. */
    private final int[] ringHead;
    private int[] nextDue = new int[0];
    private int[] dueScratch = new int[0];
    private boolean active;
    /** Steps taken in this stretch: added to every slot's computed, total and generated tokens. */
    private int steps;
    /** Steps the stretch may take before one would reach {@code max_model_len}. */
    private int stepLimit;
    /** The step (counted from the stretch's start) in which the next request samples its last token. */
    private int nextCompletion;
    /** The step (counted from the stretch's start) in which the next request samples its first answer token. */
    private int nextAnswer;
    /** Sum of this stretch's ITLs: added to every slot's last-token time. */
    private long itlSumUs;
    /** End of the stretch's latest step: every slot's last step end. */
    private long lastEndUs;
    /** Slots decoding in the current step; slots from here on were admitted in it ({@link #absorbAdmitted}). */
    private int members;
    /** Decode sequences in the shape before the current step's admissions. */
    private int shapeDecodes;

    DecodeStretch(RunningBatch running, KvCache kv, EngineConfig config) {
        this.running = running;
        this.kv = kv;
        this.maxBatchedTokens = config.maxNumBatchedTokens();
        this.maxModelLen = config.maxModelLen();
        // a request is due again at most one block size of steps after a KV call
        int ring = Integer.highestOneBit(config.blockSizeTokens()) << 1;
        this.ringMask = ring - 1;
        this.ringHead = new int[ring];
    }

    boolean active() {
        return active;
    }

    /**
     * Starts a stretch with the step at {@code nowUs} if the running batch is steady and at least two
     * steps complete nobody (a shorter stretch saves nothing); requests waiting do not prevent it.
     */
    boolean tryStart(long nowUs) {
        int n = running.size();
        if (n == 0 || n > maxBatchedTokens) {
            return false;
        }
        int limit = Integer.MAX_VALUE;
        int completion = Integer.MAX_VALUE;
        // from the batch's end: a request still prefilling is most often among the latest admitted, so a
        // batch that cannot start a stretch (tried at every step, requests waiting or not) is mostly told
        // in a slot or two
        for (int i = n - 1; i >= 0; i--) {
            int computed = running.computed[i];
            int tokens = running.tokens[i];
            if (tokens - computed != 1 || running.generated[i] == 0 || running.lastStepEndUs[i] != nowUs || running.capped[i]) {
                return false;
            }
            completion = Math.min(completion, running.target[i] - running.generated[i] - 1);
            if (maxModelLen > 0) {
                limit = Math.min(limit, maxModelLen - tokens - 1);
            }
        }
        if (limit < 2 || completion < 0) {
            return false;
        }
        ensureSlots(n);
        java.util.Arrays.fill(ringHead, -1);
        steps = 0;
        shape.clear();
        for (int i = 0; i < n; i++) {
            shape.addDecode(running.computed[i]);
            enqueue(i, running.fastLimit[i] - running.computed[i]);
        }
        active = true;
        stepLimit = limit;
        nextCompletion = completion;
        itlSumUs = 0;
        lastEndUs = nowUs;
        nextAnswer = nextAnswerStep(n);
        return true;
    }

    /**
     * Takes the next step steady if it completes nobody and the free blocks cover its due KV calls;
     * then makes those calls and returns the step's shape, else returns null (nothing changed; the
     * caller {@link #end}s the stretch and forms the step the ordinary way).
     */
    StepShape step() {
        if (steps >= stepLimit) {
            return null;
        }
        int due = collectDue();
        int newBlocks = 0;
        for (int k = 0; k < due; k++) {
            int slot = dueScratch[k];
            if (running.computed[slot] + steps + 1 > running.request(slot).blockTokens) {
                newBlocks++;
            }
        }
        if (newBlocks > kv.freeBlocks()) {
            return null;
        }
        ringHead[steps & ringMask] = -1;
        for (int k = 0; k < due; k++) {
            int slot = dueScratch[k];
            if (!kv.ensure(running.request(slot), running.computed[slot] + steps + 1)) {
                throw new IllegalStateException("KV allocation failed after its blocks were counted free");
            }
            running.refreshLimit(slot);
            enqueue(slot, running.fastLimit[slot] - running.computed[slot]);
        }
        if (steps > 0) {
            shape.advanceDecodes();
        }
        members = running.size();
        shapeDecodes = shape.decodeSeqs();
        return shape;
    }

    /** Slots that decoded in the step just taken (the ones admitted in it not counted). */
    int members() {
        return members;
    }

    /**
     * The step just {@link #executed} also admitted requests (the batch former's phase 2 after the
     * stretch's phase 1, appended to the batch and their chunks to the step's shape): they execute
     * now, as the ordinary step would have executed them after the stretch's members, and join the
     * stretch, their counters rebased onto its start. A request that did not sample a token in this
     * step (a chunk short of its prompt) or stopped at {@code max_model_len} is no steady decoder in
     * the next step (its next inter-token latency is not the step's): the stretch then ends here and
     * finished requests leave in batch order, as after an ordinary step.
     */
    void absorbAdmitted(StepExecution execution, long endUs) {
        int n = running.size();
        if (n == members) {
            return;
        }
        execution.executeFrom(members, endUs);
        for (int j = members; j < n; j++) {
            if (running.tokens[j] - running.computed[j] != 1 || running.generated[j] == 0
                    || running.lastStepEndUs[j] != endUs || running.capped[j]) {
                // not decoding next step: the stretch ends with this step (the admitted requests'
                // counters are current already), and finished requests leave in batch order
                for (int i = 0; i < members; i++) {
                    writeBack(i);
                }
                active = false;
                execution.completeFinished(endUs);
                return;
            }
        }
        ensureSlots(n);
        for (int j = members; j < n; j++) {
            int tokens = running.tokens[j];
            if (maxModelLen > 0) {
                stepLimit = Math.min(stepLimit, steps + maxModelLen - tokens - 1);
            }
            nextCompletion = Math.min(nextCompletion, steps + running.target[j] - running.generated[j] - 1);
            // the stretch's representation: counters as of its start, plus its steps and ITL sum
            running.computed[j] -= steps;
            running.tokens[j] = tokens - steps;
            running.generated[j] -= steps;
            running.lastTokenUs[j] -= itlSumUs;
        }
        nextAnswer = nextAnswerStep(n);
        boolean decodesOnly = shape.prefillSeqs() == 0;
        boolean prefillsOnly = shape.decodeSeqs() == shapeDecodes;
        shape.clearPrefills();
        if (decodesOnly || prefillsOnly) {
            // admitted as decodes: already in the shape; as prefills: they decode from the next step on
            for (int j = members; j < n; j++) {
                if (prefillsOnly) {
                    shape.addDecode(running.computed[j] + steps - 1);
                }
                enqueue(j, running.fastLimit[j] - running.computed[j]);
            }
        } else {
            // both kinds: the decode sequences are rebuilt in batch order
            shape.clear();
            for (int i = 0; i < n; i++) {
                shape.addDecode(running.computed[i] + steps - 1);
            }
            for (int j = members; j < n; j++) {
                enqueue(j, running.fastLimit[j] - running.computed[j]);
            }
        }
    }

    /** The step returned by {@link #step} ran until {@code endUs}; every request's ITL in it was {@code itlUs}. */
    void executed(long endUs, long itlUs) {
        steps++;
        itlSumUs += itlUs;
        lastEndUs = endUs;
        if (steps == nextAnswer) {
            // the members that sampled their first answer token in this step, as StepExecution records it
            for (int i = 0; i < members; i++) {
                if (running.answerAt[i] - running.generated[i] == steps) {
                    running.request(i).firstAnswerTokenUs = running.lastTokenUs[i] + itlSumUs;
                }
            }
            nextAnswer = nextAnswerStep(members);
        }
    }

    /**
     * The step (counted from the stretch's start) after which one of the first {@code n} slots will first have sampled its
     * first answer token, or {@link Integer#MAX_VALUE}: slot {@code i} samples it in step {@code answerAt - generated}
     * (its counters as of the stretch's start).
     */
    private int nextAnswerStep(int n) {
        int next = Integer.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            int at = running.answerAt[i] - running.generated[i];
            if (at > steps && at < next) {
                next = at;
            }
        }
        return next;
    }

    /** Whether the step just {@link #executed} gave some request its last token ({@link #complete} them). */
    boolean completedSome() {
        return steps > nextCompletion;
    }

    /**
     * The requests that sampled their last token in the step just executed leave the batch, as
     * {@link StepExecution#executeAndComplete} lets them (in batch order: their counters written
     * back, then {@code execution} frees their blocks and schedules their leaving); the others keep
     * the stretch going, their slots compacted, with the step shape and the ring of KV-due slots
     * rebuilt over the remaining batch. The step was the same decode step either way: every request
     * decoded one token in it, so the ITLs, KV calls and completions are those of an ordinary step.
     */
    void complete(StepExecution execution) {
        int n = running.size();
        int kept = 0;
        int survivorsFrom = 0;
        int next = Integer.MAX_VALUE;
        int limit = Integer.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            int left = running.target[i] - running.generated[i] - steps;
            if (left > 0) {
                next = Math.min(next, steps + left - 1);
                if (maxModelLen > 0) {
                    limit = Math.min(limit, maxModelLen - running.tokens[i] - 1); // as tryStart, from the start's count
                }
                continue;
            }
            running.moveRange(survivorsFrom, kept, i - survivorsFrom);
            kept += i - survivorsFrom;
            survivorsFrom = i + 1;
            writeBack(i);
            execution.complete(running.sync(i), lastEndUs);
        }
        running.moveRange(survivorsFrom, kept, n - survivorsFrom);
        running.truncate(kept + n - survivorsFrom);
        nextCompletion = next;
        stepLimit = limit; // a request that bounded it may just have left
        n = running.size();
        if (n == 0) {
            active = false;
            return;
        }
        java.util.Arrays.fill(ringHead, -1);
        shape.clear();
        for (int i = 0; i < n; i++) {
            // the shape of the step just taken: the next step() advances every context by one
            shape.addDecode(running.computed[i] + steps - 1);
            enqueue(i, running.fastLimit[i] - running.computed[i]);
        }
    }

    /** Ends the stretch: writes its steps back into the running batch's per-request arrays. */
    void end() {
        for (int i = 0, n = running.size(); i < n; i++) {
            writeBack(i);
        }
        active = false;
    }

    private void writeBack(int i) {
        running.computed[i] += steps;
        running.tokens[i] += steps;
        running.generated[i] += steps;
        running.lastTokenUs[i] += itlSumUs;
        running.lastStepEndUs[i] = lastEndUs;
    }

    /** Slot {@code i}'s computed tokens now (for the invariant checks, which may run inside a stretch). */
    int computed(int i) {
        return active ? running.computed[i] + steps : running.computed[i];
    }

    /** Room for {@code n} slots in the due chains (links kept). */
    private void ensureSlots(int n) {
        if (nextDue.length < n) {
            int capacity = Math.max(n, 2 * nextDue.length);
            nextDue = java.util.Arrays.copyOf(nextDue, capacity);
            dueScratch = new int[capacity];
        }
    }

    /** Files {@code slot} under the step at which it is due ({@code dueSteps}, counted from the stretch's start). */
    private void enqueue(int slot, int dueSteps) {
        if (dueSteps < steps || dueSteps - steps > ringMask) {
            throw new IllegalStateException("slot " + slot + " due at step " + dueSteps + " of a stretch at step " + steps);
        }
        int pos = dueSteps & ringMask;
        nextDue[slot] = ringHead[pos];
        ringHead[pos] = slot;
    }

    /** The slots due at this step, in batch order, into {@link #dueScratch}; returns how many. */
    private int collectDue() {
        int count = 0;
        for (int slot = ringHead[steps & ringMask]; slot >= 0; slot = nextDue[slot]) {
            int k = count++;
            while (k > 0 && dueScratch[k - 1] > slot) { // insertion sort: a handful per step
                dueScratch[k] = dueScratch[k - 1];
                k--;
            }
            dueScratch[k] = slot;
        }
        return count;
    }
}
