package io.servesim.cluster;

/**
 * An immutable view of one instance as the control plane saw it at {@code timeUs} (each field
 * subject to its signal's observability). Routing policies read the same values through
 * {@link ClusterView}'s primitive accessors without allocating; this record is what decision
 * traces and tests keep.
 */
public record InstanceSnapshot(int instance, long timeUs, int queueDepth, int running, double kvUtilization,
                               int freeKvBlocks, long inFlight, double recentTtftUs, double recentTpotUs,
                               double cacheHitRate, double estimatedWaitUs) {
}
