package io.servesim.config;

/**
 * The bound {@code engine:} section; unresolved values use sentinels resolved against the model
 * and GPU by {@code sim.RunPlan}.
 *
 * @param maxNumSeqs                {@code max_num_seqs} (alias {@code max_num_running_reqs}), default 256
 * @param maxNumBatchedTokens       {@code max_num_batched_tokens} (alias {@code max_num_scheduled_tokens}), default 2048
 * @param longPrefillTokenThreshold {@code long_prefill_token_threshold}, 0 = no chunk cap
 * @param maxModelLen               {@code max_model_len}; -1 = the model's {@code max_position_embeddings} (vLLM's default) or unlimited
 * @param blockSizeTokens           {@code block_size}, one of vLLM's 1, 8, 16, 32, 64, 128; default 16
 * @param totalKvBlocks             {@code total_kv_blocks}; 0 = from trained coefficients, else derived from GPU memory
 * @param gpuMemoryUtilization      {@code gpu_memory_utilization} used when deriving KV capacity, default 0.9
 * @param prefixCaching             {@code enable_prefix_caching}, default true (vLLM v1 default)
 */
public record EngineSpec(int maxNumSeqs, int maxNumBatchedTokens, int longPrefillTokenThreshold, int maxModelLen,
                         int blockSizeTokens, int totalKvBlocks, double gpuMemoryUtilization, boolean prefixCaching) {
}
