package io.servesim.run;

import io.servesim.config.ConfigException;
import io.servesim.engine.KvCache;
import io.servesim.engine.KvCacheFootprint;
import io.servesim.latency.ContextLength;
import io.servesim.latency.ModelArchitecture;
import java.util.List;
import java.util.Locale;

/**
 * Checks made once a run's KV capacity and {@code max_model_len} are resolved, so that a config that
 * cannot run fails with its figures instead of running (or dying of an {@link OutOfMemoryError}):
 * <ul>
 *   <li>vLLM's refusals at start-up: a {@code max_model_len} above the model's derived maximum
 *       ({@link ContextLength}, {@code _get_and_verify_max_len} in {@code vllm/config.py}), and a KV
 *       cache that cannot hold one sequence of {@code max_model_len} tokens
 *       ({@code _check_enough_kv_cache_memory} in {@code vllm/v1/core/kv_cache_utils.py}); the SGLang core
 *       starts and limits each request to its pool instead ({@link #sglangRequestLimit});</li>
 *   <li>the simulator's own limits: more blocks than one {@link KvCache} can index, and KV-cache
 *       bookkeeping ({@link KvCacheFootprint#heapBytes}) of every instance beyond {@value #HEAP_SHARE_PERCENT}%
 *       of the JVM's maximum heap (the rest is left to requests, events and metrics).</li>
 * </ul>
 * Every problem names the config path to change.
 */
final class StartupChecks {
    static final int HEAP_SHARE_PERCENT = 75;
    /** How a problem of this JVM's heap, not of the config, ends ({@link RunPlan#needsLargerHeap}). */
    static final String LARGER_HEAP = "or run the JVM with a larger -Xmx";

    private StartupChecks() {
    }

    /**
     * {@code engine.max_model_len} checked against the model, or the model's length when not given (0: unlimited). Both
     * cores refuse a longer one ({@code core}: vLLM, or SGLang's {@code ModelConfig}: "User-specified context_length
     * ... is greater than the derived context_length").
     */
    static int maxModelLen(int givenOrNegative, ModelArchitecture arch, String core, FleetKeys keys,
                           List<ConfigException.Problem> problems) {
        ContextLength model = arch == null ? ContextLength.unscaled(0) : arch.contextLength();
        if (givenOrNegative < 0) {
            return model.known() ? model.tokens() : 0;
        }
        if (model.known() && givenOrNegative > model.tokens()) {
            problems.add(new ConfigException.Problem(keys.engine("max_model_len"), givenOrNegative
                    + " is longer than the model's maximum length " + model.tokens() + " (" + model.derivation() + " of "
                    + arch.name() + "); " + core + " refuses to start"));
        }
        return givenOrNegative;
    }

    /**
     * One sequence of {@code maxModelLen} tokens must fit the cache.
     *
     * @param capacity what the blocks are, for the message ({@code of engine.total_kv_blocks})
     * @param arch     the model, for bytes per GPU; null when unknown (no bytes are quoted)
     */
    static void holdsOneSequence(int maxModelLen, int blocks, int blockSizeTokens, String capacity, ModelArchitecture arch,
                                 int tp, FleetKeys keys, List<ConfigException.Problem> problems) {
        long needed = ((long) maxModelLen + blockSizeTokens - 1) / blockSizeTokens;
        if (maxModelLen <= 0 || needed <= blocks) {
            return;
        }
        long tokens = (long) blocks * blockSizeTokens;
        long bytesPerToken = arch == null ? 0 : arch.kvBytesPerTokenPerGpu(tp);
        String neededBytes = arch == null ? "" : " (" + gib((long) maxModelLen * bytesPerToken) + " GiB)";
        String haveBytes = arch == null ? "" : ", " + gib(tokens * bytesPerToken) + " GiB";
        problems.add(new ConfigException.Problem(keys.engine("max_model_len"), "one sequence of max_model_len " + maxModelLen
                + " tokens needs " + needed + " KV blocks of " + blockSizeTokens + " tokens" + neededBytes + ", more than the "
                + blocks + " blocks (" + tokens + " tokens" + haveBytes + ") " + capacity
                + "; vLLM refuses to start: lower max_model_len or raise the KV capacity"));
    }

    /**
     * The SGLang core starts whatever its pool holds and limits a request instead: prompt and output together at most
     * min(context length, pool tokens) - 1 ({@code Scheduler.__init__}: {@code max_req_input_len = min(context_len - 1,
     * max_total_num_tokens - 1)}, and a request's {@code max_new_tokens} is clipped to it; sgl-project/sglang
     * {@code python/sglang/srt/managers/scheduler.py}). Returns the request limit: {@code maxModelLen} (0: none), or
     * the pool's tokens - 1 when that is less.
     */
    static int sglangRequestLimit(int maxModelLen, int pages, int pageSizeTokens) {
        long pool = (long) pages * pageSizeTokens - 1;
        return maxModelLen > 0 && maxModelLen <= pool ? maxModelLen : (int) Math.max(1, Math.min(Integer.MAX_VALUE, pool));
    }

    /** The blocks must be indexable by one cache and every instance's bookkeeping must fit the heap. */
    static void fitsSimulator(int instances, int blocks, boolean prefixCaching, long maxHeapBytes, FleetKeys keys,
                              List<ConfigException.Problem> problems) {
        if (blocks > KvCache.MAX_BLOCKS) {
            problems.add(new ConfigException.Problem(keys.engine("total_kv_blocks"), blocks
                    + " blocks are more than one simulated KV cache can index (" + KvCache.MAX_BLOCKS + ")"));
            return;
        }
        long perInstance = KvCacheFootprint.heapBytes(blocks, prefixCaching);
        long budget = maxHeapBytes / 100 * HEAP_SHARE_PERCENT;
        if ((double) perInstance * instances <= budget) {
            return;
        }
        problems.add(new ConfigException.Problem(instances > 1 ? keys.replicas() : keys.engine("total_kv_blocks"),
                instances + (instances == 1 ? " instance" : " instances") + " x " + blocks + " KV blocks need about "
                        + gib(perInstance * instances) + " GiB of simulator heap for KV-cache bookkeeping ("
                        + perInstance / blocks + " bytes per block), more than 3/4 of the JVM's maximum heap of "
                        + gib(maxHeapBytes) + " GiB; lower " + keys.replicas() + " or the KV blocks, " + LARGER_HEAP));
    }

    /**
     * The two P/D pools together must fit the heap as one fleet does ({@link #fitsSimulator} checks each pool alone:
     * 600 + 600 replicas passed it, then the run died of an OutOfMemoryError while building the engines).
     */
    static void poolsFitSimulator(int prefillReplicas, int prefillBlocks, boolean prefillCaching, int decodeReplicas,
                                  int decodeBlocks, boolean decodeCaching, long maxHeapBytes,
                                  List<ConfigException.Problem> problems) {
        long prefillBytes = KvCacheFootprint.heapBytes(prefillBlocks, prefillCaching) * prefillReplicas;
        long decodeBytes = KvCacheFootprint.heapBytes(decodeBlocks, decodeCaching) * decodeReplicas;
        if ((double) prefillBytes + decodeBytes <= maxHeapBytes / 100 * HEAP_SHARE_PERCENT) {
            return;
        }
        problems.add(new ConfigException.Problem("deployment.pd", "the pools' " + prefillReplicas + " prefill x "
                + prefillBlocks + " and " + decodeReplicas + " decode x " + decodeBlocks + " KV blocks need about "
                + gib(prefillBytes + decodeBytes) + " GiB of simulator heap for KV-cache bookkeeping together, more than 3/4"
                + " of the JVM's maximum heap of " + gib(maxHeapBytes) + " GiB; lower deployment.pd.prefill.replicas,"
                + " deployment.pd.decode.replicas or the KV blocks, " + LARGER_HEAP));
    }

    static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.2f", bytes / (1024.0 * 1024 * 1024));
    }
}
