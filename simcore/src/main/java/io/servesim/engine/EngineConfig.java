package io.servesim.engine;

/**
 * vLLM engine limits of one instance (vLLM {@code SchedulerConfig} / {@code CacheConfig}).
 *
 * @param maxNumSeqs                 running requests at most ({@code max_num_seqs}, BLIS {@code max-num-running-reqs})
 * @param maxNumBatchedTokens        tokens per step at most ({@code max_num_batched_tokens}, BLIS {@code max-num-scheduled-tokens})
 * @param longPrefillTokenThreshold  a prefill chunk is capped at this many tokens; 0 = no cap
 *                                   ({@code long_prefill_token_threshold}, chunked prefill)
 * @param maxModelLen                prompt + output tokens at most; 0 = unlimited ({@code max_model_len})
 * @param blockSizeTokens            tokens per KV block ({@code block_size})
 * @param totalKvBlocks              KV blocks of the instance ({@code num_gpu_blocks})
 * @param prefixCaching              automatic prefix caching on ({@code enable_prefix_caching})
 */
public record EngineConfig(int maxNumSeqs, int maxNumBatchedTokens, int longPrefillTokenThreshold,
                           int maxModelLen, int blockSizeTokens, int totalKvBlocks, boolean prefixCaching) {
    public EngineConfig {
        if (maxNumSeqs <= 0 || maxNumBatchedTokens <= 0 || longPrefillTokenThreshold < 0 || maxModelLen < 0
                || blockSizeTokens <= 0 || totalKvBlocks <= 0) {
            throw new IllegalArgumentException("invalid engine config " + this);
        }
    }
}
