package io.servesim.engine.encoder;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * vLLM v1's encoder cache: encoder outputs of multimodal items kept by the item's content id, counted in encoder
 * tokens, shared between requests, freed by reference counting ({@code EncoderCacheManager} in
 * {@code vllm/v1/core/encoder_cache_manager.py} at vllm-project/vllm@51c7cf7d6958f4eeee3afe2fe36db159aed0425e).
 *
 * <ul>
 *   <li>{@link #checkAndUpdate}: an item already cached gains the request as a reference and needs no encoder run; an
 *       unreferenced entry leaves the freeable list.</li>
 *   <li>{@link #canAllocate}: refuses an item larger than the step's remaining encoder compute budget; otherwise fits
 *       it (plus what the step already scheduled) in free slots, evicting the oldest unreferenced entries first when
 *       the free slots alone are short but free plus freeable suffice.</li>
 *   <li>{@link #allocate}: reserves the item's tokens for the request.</li>
 *   <li>{@link #free}: drops the request's reference; an entry left with none becomes freeable (kept, evicted only when
 *       space is needed).</li>
 * </ul>
 */
public final class EncoderCache {
    private final int capacityTokens;
    private int freeTokens;
    private int freeableTokens;
    private final Map<Long, Set<Long>> referencesByContent = new HashMap<>();
    /** Unreferenced entries, oldest first (vLLM's {@code freeable} OrderedDict). */
    private final LinkedHashMap<Long, Integer> freeable = new LinkedHashMap<>();
    private long evictions;

    /** @param capacityTokens vLLM's {@code encoder_cache_size}, in encoder tokens (>= 1) */
    public EncoderCache(int capacityTokens) {
        if (capacityTokens < 1) {
            throw new IllegalArgumentException("encoder cache capacity must be >= 1 token, was " + capacityTokens);
        }
        this.capacityTokens = capacityTokens;
        this.freeTokens = capacityTokens;
        this.freeableTokens = capacityTokens;
    }

    /** True (and the request now references it) when the item's encoder output is cached. */
    public boolean checkAndUpdate(long contentId, long requestId) {
        Set<Long> refs = referencesByContent.get(contentId);
        if (refs == null) {
            return false;
        }
        if (refs.isEmpty()) {
            freeableTokens -= freeable.remove(contentId);
        }
        refs.add(requestId);
        return true;
    }

    /**
     * Whether an item of {@code itemTokens} can be encoded this step, evicting unreferenced entries oldest first if
     * needed.
     *
     * @param remainingBudgetTokens the step's encoder compute budget left
     * @param scheduledTokens       encoder tokens this step already scheduled into the cache
     */
    public boolean canAllocate(int itemTokens, int remainingBudgetTokens, int scheduledTokens) {
        if (itemTokens > remainingBudgetTokens) {
            return false;
        }
        int needed = itemTokens + scheduledTokens;
        if (needed <= freeTokens) {
            return true;
        }
        if (needed > freeableTokens) {
            return false;
        }
        Iterator<Map.Entry<Long, Integer>> oldest = freeable.entrySet().iterator();
        while (needed > freeTokens) {
            Map.Entry<Long, Integer> e = oldest.next();
            oldest.remove();
            referencesByContent.remove(e.getKey());
            freeTokens += e.getValue();
            evictions++;
        }
        return true;
    }

    /** Reserves the item's tokens for the request; call only after {@link #canAllocate} returned true. */
    public void allocate(long contentId, int itemTokens, long requestId) {
        if (freeTokens < itemTokens || freeableTokens < itemTokens) {
            throw new IllegalStateException("allocate without room: " + itemTokens + " tokens, " + freeTokens
                    + " free, " + freeableTokens + " freeable");
        }
        referencesByContent.computeIfAbsent(contentId, k -> new HashSet<>()).add(requestId);
        freeTokens -= itemTokens;
        freeableTokens -= itemTokens;
    }

    /** Drops the request's reference to the item; an entry left unreferenced becomes freeable (newest). */
    public void free(long contentId, int itemTokens, long requestId) {
        Set<Long> refs = referencesByContent.get(contentId);
        if (refs == null || refs.isEmpty()) {
            return;
        }
        refs.remove(requestId);
        if (refs.isEmpty()) {
            freeable.put(contentId, itemTokens);
            freeableTokens += itemTokens;
        }
    }

    /**
     * Undoes {@link #allocate} of the item for the request in the step being formed (the request was preempted before
     * the step ran, so the encoder never computed it): an entry only it references is dropped, its tokens free again;
     * one that another request found meanwhile loses this request's reference only.
     */
    public void discard(long contentId, int itemTokens, long requestId) {
        Set<Long> refs = referencesByContent.get(contentId);
        if (refs == null || !refs.contains(requestId)) {
            return;
        }
        if (refs.size() == 1) {
            referencesByContent.remove(contentId);
            freeTokens += itemTokens;
            freeableTokens += itemTokens;
        } else {
            refs.remove(requestId);
        }
    }

    /** Tokens not held by any entry. */
    public int freeTokens() {
        return freeTokens;
    }

    /** Tokens reclaimable now: free plus unreferenced entries'. */
    public int freeableTokens() {
        return freeableTokens;
    }

    /** The cache's size in encoder tokens. */
    public int capacityTokens() {
        return capacityTokens;
    }

    /** Unreferenced entries evicted to make room so far. */
    public long evictions() {
        return evictions;
    }
}
