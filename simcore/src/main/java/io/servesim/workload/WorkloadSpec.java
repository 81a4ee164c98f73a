package io.servesim.workload;

/** A bound {@code workload:} section: a synthetic generator or a trace to replay. */
public sealed interface WorkloadSpec permits SyntheticSpec, TraceSpec {
    /** Opens a fresh, lazy request stream for one run (deterministic in {@code seed}). */
    RequestSource open(long seed, long horizonUs);

    /**
     * Token count that the engine's KV block size must divide, or 0 for none (e.g. Mooncake
     * traces identify 512-token blocks, so block_size must divide 512 for their reuse to map onto KV blocks).
     */
    default int blockSizeMustDivide() {
        return 0;
    }
}
