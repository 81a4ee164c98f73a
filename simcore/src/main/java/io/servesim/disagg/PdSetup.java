package io.servesim.disagg;

/**
 * A resolved P/D deployment: both pools, the decider and the transfer links.
 *
 * <p>A transfer's bytes respect both pools' TP: each GPU holds its share of a token's KV heads, and
 * the shards move in parallel GPU to GPU (as NIXL moves each TP rank's blocks), one stream per GPU of
 * the pool with fewer GPUs per replica, which holds the larger share. So one stream carries
 * {@code prompt tokens x max(KV bytes per token per GPU of either pool)} and sets the time
 * ({@code latency + stream bytes / bandwidth} alone), and the transfer moves {@code min(tp) x} that.
 *
 * @param prefill         the prefill pool (engine ids {@code 0 .. prefill.replicas - 1})
 * @param decode          the decode pool (the ids after them)
 * @param decider         which requests are disaggregated
 * @param thresholdTokens the {@code prefix-threshold} decider's threshold
 * @param transfer        the links
 * @param usdPerHour      what both pools cost per hour (their GPUs at their prices); NaN when a price is unknown
 */
public record PdSetup(PoolSetup prefill, PoolSetup decode, PdDecider decider, int thresholdTokens,
                      TransferSpec transfer, double usdPerHour) {
    public PdSetup {
        if (!transfer.isResolved()) {
            throw new IllegalArgumentException("a P/D deployment's transfer links must be settled: " + transfer);
        }
    }

    /** Bytes per prompt token one stream carries. */
    public long streamBytesPerToken() {
        return Math.max(prefill.kvBytesPerTokenPerGpu(), decode.kvBytesPerTokenPerGpu());
    }

    /** Parallel GPU-to-GPU streams of one transfer. */
    public int streams() {
        return Math.min(prefill.tp(), decode.tp());
    }

    /** GPUs of both pools. */
    public int gpus() {
        return prefill.gpus() + decode.gpus();
    }

    /** Engines of both pools. */
    public int instances() {
        return prefill.replicas() + decode.replicas();
    }
}
