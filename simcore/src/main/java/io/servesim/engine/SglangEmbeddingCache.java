package io.servesim.engine;

import io.servesim.latency.StepShape;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The SGLang core's multimodal embeddings, as SGLang computes them in the model's forward pass
 * ({@code _get_chunked_prefill_embedding} in {@code python/sglang/srt/managers/mm_utils.py} and
 * {@code MultiModalStaticCache} in {@code python/sglang/srt/mem_cache/multimodal_cache.py} at
 * sgl-project/sglang@005fa8330a5843e541fe075249f1d3da3d48ae0f):
 * <ul>
 *   <li>every prefill chunk of a request whose items do not all end inside the chunk's prefix needs the embeddings of
 *       all the request's items, looked up under one key, the combination of their hashes (SGLang keys each modality's
 *       items apart; here a request's items are one set);</li>
 *   <li>a miss runs the encoder over all of them in that step, whichever the chunk reaches, and stores the result; a
 *       hit (a later chunk, or a retracted request prefilling again) costs nothing;</li>
 *   <li>the cache is an LRU in bytes ({@code SGLANG_VLM_CACHE_SIZE_MB}, 100 MiB by default, here in tokens of the
 *       language model's embedding width): least recently used entries are evicted until a new one fits, and one
 *       larger than the whole cache is not kept, so each chunk encodes it again.</li>
 * </ul>
 * There is no encoder budget per step: a step encodes whatever its chunks need.
 */
final class SglangEmbeddingCache {
    private final int capacityTokens;
    private int usedTokens;
    /** Combined item hash -> tokens, least recently used first. */
    private final LinkedHashMap<Long, Integer> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long encodedItems;
    private long encodedTokens;
    private long cacheHits;

    /** @param capacityTokens the cache's bytes over the embedding bytes per token (>= 0) */
    SglangEmbeddingCache(int capacityTokens) {
        this.capacityTokens = capacityTokens;
    }

    /** {@code r} prefills a chunk after its first {@code prefixLen} tokens: its items' embeddings are fetched or encoded. */
    void extend(Request r, int prefixLen, StepShape shape) {
        MediaItems m = r.media();
        if (m == null || m.end() <= prefixLen) {
            return;
        }
        long key = key(m);
        if (entries.get(key) != null) {
            cacheHits += m.count();
            return;
        }
        int tokens = m.tokens();
        shape.addEncoderItems(m.count(), tokens);
        encodedItems += m.count();
        encodedTokens += tokens;
        if (tokens > capacityTokens) {
            return;
        }
        Iterator<Map.Entry<Long, Integer>> oldest = entries.entrySet().iterator();
        while (usedTokens + tokens > capacityTokens) {
            usedTokens -= oldest.next().getValue();
            oldest.remove();
        }
        entries.put(key, tokens);
        usedTokens += tokens;
    }

    /** SGLang's {@code combine_hashes} over the items' content ids. */
    private static long key(MediaItems m) {
        long h = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < m.count(); i++) {
            h = Long.rotateLeft(h ^ m.contentId(i), 27) * 0xBF58476D1CE4E5B9L;
        }
        return h;
    }

    long encodedItems() { return encodedItems; }
    long encodedTokens() { return encodedTokens; }
    long cacheHits() { return cacheHits; }
    /** Tokens the cached embeddings take (at most the capacity). */
    int usedTokens() { return usedTokens; }
    int capacityTokens() { return capacityTokens; }
}
