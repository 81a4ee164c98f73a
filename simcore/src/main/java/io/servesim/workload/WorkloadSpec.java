package io.servesim.workload;

import java.util.List;

/** A bound {@code workload:} section: synthetic clients, or a trace to replay. */
public sealed interface WorkloadSpec permits GeneratorSpec, TraceSpec {
    /** Opens a fresh, lazy request stream for one run (deterministic in {@code seed}). */
    RequestSource open(long seed, long horizonUs);

    /**
     * Token count that the engine's KV block size must divide, or 0 for none (e.g. Mooncake
     * traces identify 512-token blocks, so block_size must divide 512 for their reuse to map onto KV blocks).
     */
    default int blockSizeMustDivide() {
        return 0;
    }

    /** Tokens of the largest image, audio or video item a request can carry; 0 when none carries items. */
    default int largestMediaItemTokens() {
        return 0;
    }

    /** Whether a request can carry audio or video items. */
    default boolean sendsAudioOrVideo() {
        return false;
    }

    /** Non-fatal notes from binding, for {@code servesim validate} to print (e.g. normalised rate fractions). */
    default List<String> warnings() {
        return List.of();
    }
}
