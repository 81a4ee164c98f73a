package io.servesim.engine.encoder;

/**
 * vLLM v1's per-step encoder compute budget and encoder cache size, in encoder tokens ({@code compute_mm_encoder_budget},
 * {@code _set_max_num_batched_encoder_input_tokens} and {@code _set_encoder_cache_size} in
 * {@code vllm/v1/core/encoder_cache_manager.py} at vllm-project/vllm@51c7cf7d6958f4eeee3afe2fe36db159aed0425e): the
 * budget defaults to {@code max_num_batched_tokens}, raised to the model's largest item; the cache size defaults to
 * the budget, is refused below it when set, and is raised to the largest item.
 *
 * @param computeTokensPerStep vLLM's {@code max_num_batched_encoder_input_tokens}
 * @param cacheTokens          vLLM's {@code encoder_cache_size}
 */
public record EncoderBudget(int computeTokensPerStep, int cacheTokens) {

    /**
     * @param maxNumBatchedTokens      the engine's token budget per step
     * @param maxTokensPerItem         the model's largest item, in tokens (>= 1)
     * @param requestedComputeTokens   a set encoder budget, or 0 for vLLM's default
     * @param requestedCacheTokens     a set encoder cache size, or 0 for vLLM's default
     * @throws IllegalArgumentException when a set cache size is below the budget (vLLM's ValueError)
     */
    public static EncoderBudget derive(int maxNumBatchedTokens, int maxTokensPerItem, int requestedComputeTokens,
                                       int requestedCacheTokens) {
        int compute = Math.max(requestedComputeTokens > 0 ? requestedComputeTokens : maxNumBatchedTokens,
                maxTokensPerItem);
        if (requestedCacheTokens > 0 && requestedCacheTokens < compute) {
            throw new IllegalArgumentException("the encoder cache must hold all encoder inputs of one step: cache "
                    + requestedCacheTokens + " tokens is below the encoder budget " + compute + " tokens");
        }
        int cache = Math.max(requestedCacheTokens > 0 ? requestedCacheTokens : compute, maxTokensPerItem);
        return new EncoderBudget(compute, cache);
    }
}
