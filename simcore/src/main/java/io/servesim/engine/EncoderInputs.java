package io.servesim.engine;

import io.servesim.engine.encoder.EncoderBudget;
import io.servesim.engine.encoder.EncoderCache;
import io.servesim.latency.StepShape;
import java.util.Arrays;

/**
 * Which image, audio and video items a step encodes, as vLLM v1's scheduler decides it for every request it schedules,
 * running or new ({@code _try_schedule_encoder_inputs}, {@code _free_encoder_inputs} and {@code _preempt_request} in
 * {@code vllm/v1/core/sched/scheduler.py} at vllm-project/vllm@00024d314514900f361ad072af6931e403b7f589):
 * <ul>
 *   <li>an item is needed when its placeholder range overlaps the tokens the step computes for the request; items
 *       already in the KV cache (the prefix cache's or computed earlier) are not;</li>
 *   <li>an item whose encoder output is in the {@link EncoderCache} (a chunk before this one encoded it, or another
 *       request with the same content) is a hit and costs nothing;</li>
 *   <li>otherwise it is encoded whole (the encoder's attention is bidirectional) if the step's encoder budget and the
 *       cache allow; if not, the request computes only the tokens before the item, or nothing this step when a prefix
 *       hit already covers the item's start;</li>
 *   <li>encoder outputs stay referenced until the request has computed past the item (freed after the step) or is
 *       preempted or done; unreferenced entries stay cached until room is needed.</li>
 * </ul>
 * A request unscheduled from the step being formed (a preemption victim) returns its items' tokens to the budget.
 */
final class EncoderInputs {
    private final int budgetTokens;
    private final EncoderCache cache;
    /** Encoder budget left in the step being formed (vLLM {@code encoder_compute_budget}). */
    private int budget;
    /** Steps formed so far: the number of the one being formed. */
    private long step;
    /** Items {@link #plan} found to encode for the request being scheduled (indices into its media items). */
    private int[] pending = new int[4];
    private int pendingCount;
    private int pendingTokens;
    private int pendingHits;
    /** Items {@link #plan} found cached (the request now references them), until {@link #commit} or {@link #abandon}. */
    private int[] hitItems = new int[4];
    /** Items computed past by the steps formed so far: freed when the next step is formed. */
    private Request[] doneRequests = new Request[8];
    private int[] doneItems = new int[8];
    private int doneCount;
    private long encodedItems;
    private long encodedTokens;
    private long cacheHits;

    EncoderInputs(EncoderBudget budget) {
        this.budgetTokens = budget.computeTokensPerStep();
        this.cache = new EncoderCache(budget.cacheTokens());
    }

    /** A step is being formed: the items computed past in the one before are freed, the budget refilled. */
    void startStep() {
        for (int k = 0; k < doneCount; k++) {
            Request r = doneRequests[k];
            MediaItems m = r.media();
            int i = doneItems[k];
            cache.free(m.contentId(i), m.length(i), r.id());
            doneRequests[k] = null;
        }
        doneCount = 0;
        budget = budgetTokens;
        step++;
    }

    /**
     * The tokens {@code r} may compute this step, from {@code computed} on, out of the {@code newTokens} it wants:
     * {@code newTokens}, fewer to stop before an item the encoder cannot take this step, or 0. The items to encode are
     * held until {@link #commit}.
     */
    int plan(Request r, int computed, int newTokens) {
        pendingCount = 0;
        pendingTokens = 0;
        pendingHits = 0;
        MediaItems m = r.media();
        int end = computed + newTokens;
        for (int i = 0; i < m.count(); i++) {
            int start = m.start(i);
            int length = m.length(i);
            if (start >= end) {
                break;
            }
            if (start + length <= computed) {
                continue;
            }
            if (cache.checkAndUpdate(m.contentId(i), r.id())) {
                if (pendingHits == hitItems.length) {
                    hitItems = Arrays.copyOf(hitItems, pendingHits * 2);
                }
                hitItems[pendingHits++] = i;
                continue;
            }
            if (pendingHolds(m, m.contentId(i))) {
                continue; // the same item twice in one prompt: encoded once (vLLM's mm_hashes_to_schedule)
            }
            if (!cache.canAllocate(length, budget - pendingTokens, pendingTokens)) {
                return computed < start ? start - computed : 0;
            }
            if (pendingCount == pending.length) {
                pending = Arrays.copyOf(pending, pendingCount * 2);
            }
            pending[pendingCount++] = i;
            pendingTokens += length;
        }
        return newTokens;
    }

    private boolean pendingHolds(MediaItems m, long contentId) {
        for (int k = 0; k < pendingCount; k++) {
            if (m.contentId(pending[k]) == contentId) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code r} is scheduled to compute {@code newTokens} from {@code computed} with the items {@link #plan} found: they
     * are reserved in the cache and added to {@code shape}; items it computes past are freed after the step.
     */
    void commit(Request r, int computed, int newTokens, StepShape shape) {
        MediaItems m = r.media();
        if (r.encoderStepEncoded == null || r.encoderStepEncoded.length < pendingCount) {
            r.encoderStepEncoded = new int[Math.max(4, pendingCount)];
        }
        for (int k = 0; k < pendingCount; k++) {
            int i = pending[k];
            cache.allocate(m.contentId(i), m.length(i), r.id());
            r.encoderStepEncoded[k] = i;
        }
        budget -= pendingTokens;
        encodedItems += pendingCount;
        encodedTokens += pendingTokens;
        cacheHits += pendingHits;
        r.encoderStepItems = pendingCount;
        r.encoderStepTokens = pendingTokens;
        r.encoderStepHits = pendingHits;
        r.encoderStep = step;
        if (pendingCount > 0) {
            shape.addEncoderItems(pendingCount, pendingTokens);
        }
        pendingCount = 0;
        pendingTokens = 0;
        int end = computed + newTokens;
        for (int i = 0; i < m.count() && m.start(i) < end; i++) {
            if (m.start(i) + m.length(i) > computed && m.start(i) + m.length(i) <= end) {
                done(r, i);
            }
        }
    }

    /**
     * The waiting request {@link #plan} was asked about is not admitted (its chunk was cut to nothing, or its KV blocks
     * could not be had): the references its lookup took on cached items are dropped, so a queue of waiting requests never
     * pins cache entries the head needs room for. (vLLM keeps them until the request runs or leaves; with an encoder
     * cache a few items large, the head could then wait forever.)
     */
    void abandon(Request r) {
        MediaItems m = r.media();
        for (int k = 0; k < pendingHits; k++) {
            cache.free(m.contentId(hitItems[k]), m.length(hitItems[k]), r.id());
        }
        pendingCount = 0;
        pendingTokens = 0;
        pendingHits = 0;
    }

    /**
     * {@code r}, scheduled earlier in the step being formed, was preempted: its items are not encoded in this step after
     * all, their cache entries are dropped (nothing computed them) and their tokens return to the budget; its other cache
     * references go with {@link #release}. (vLLM returns the budget; its entries would stay as if computed, which a
     * simulator cannot take: a readmission would find the item cached without ever paying for it.)
     */
    void unscheduled(Request r) {
        if (r.encoderStep == step) {
            MediaItems m = r.media();
            for (int k = 0; k < r.encoderStepItems; k++) {
                int i = r.encoderStepEncoded[k];
                cache.discard(m.contentId(i), m.length(i), r.id());
            }
            budget += r.encoderStepTokens;
            encodedItems -= r.encoderStepItems;
            encodedTokens -= r.encoderStepTokens;
            cacheHits -= r.encoderStepHits;
            r.encoderStep = -1;
        }
    }

    /** Adds to {@code shape} the items the step being formed encodes for {@code r} (a step's shape rebuilt). */
    void readd(Request r, StepShape shape) {
        if (r.encoderStep == step && r.encoderStepItems > 0) {
            shape.addEncoderItems(r.encoderStepItems, r.encoderStepTokens);
        }
    }

    /** {@code r} left the running batch (preempted, finished or moved): it references no encoder output any more. */
    void release(Request r) {
        MediaItems m = r.media();
        for (int i = 0; i < m.count(); i++) {
            cache.free(m.contentId(i), m.length(i), r.id());
        }
    }

    private void done(Request r, int item) {
        if (doneCount == doneRequests.length) {
            doneRequests = Arrays.copyOf(doneRequests, doneCount * 2);
            doneItems = Arrays.copyOf(doneItems, doneCount * 2);
        }
        doneRequests[doneCount] = r;
        doneItems[doneCount++] = item;
    }

    /** Items encoded so far. */
    long encodedItems() { return encodedItems; }
    /** Encoder tokens run so far. */
    long encodedTokens() { return encodedTokens; }
    /** Items a scheduled request needed whose encoder output was already cached. */
    long cacheHits() { return cacheHits; }
    /** Unreferenced encoder outputs evicted to make room. */
    long evictions() { return cache.evictions(); }
    /** Cache tokens no request references (free or reclaimable): all of them once no request holds an item. */
    int unreferencedTokens() { return cache.freeableTokens(); }
    /** The encoder cache's size in tokens. */
    int cacheTokens() { return cache.capacityTokens(); }
}
