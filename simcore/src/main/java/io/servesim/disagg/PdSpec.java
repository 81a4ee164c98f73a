package io.servesim.disagg;

/**
 * A P/D deployment as bound from {@code deployment.pd} (with {@code deployment.architecture: pd}).
 *
 * @param prefill         the prefill pool
 * @param decode          the decode pool
 * @param decider         which requests are disaggregated
 * @param thresholdTokens {@code prefix_threshold_tokens} of the {@code prefix-threshold} decider
 * @param transfer        the KV transfer links
 */
public record PdSpec(PoolSpec prefill, PoolSpec decode, PdDecider decider, int thresholdTokens, TransferSpec transfer) {
    /** GPUs of both pools: replicas x TP, summed. */
    public int gpus() {
        return prefill.replicas() * prefill.latency().tp() + decode.replicas() * decode.latency().tp();
    }
}
