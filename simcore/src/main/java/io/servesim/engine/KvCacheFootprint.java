package io.servesim.engine;

/**
 * The heap a {@link KvCache}'s bookkeeping takes, for the start-up check that a run's caches fit
 * the JVM ({@code io.servesim.run.StartupChecks}), and the layout constants it follows from.
 */
public final class KvCacheFootprint {
    /** Ints per free-queue node (links and a count; padded so a node touches one cache line). */
    static final int NODE_INTS = 4;

    private KvCacheFootprint() {
    }

    /**
     * Heap bytes the {@link KvCache} constructor allocates for a cache of {@code totalBlocks} (array
     * payloads; the object and array headers are a few hundred bytes more): the free-queue nodes,
     * hashes, hit scratch, free ids and free runs, and the prefix index's key and value arrays.
     */
    public static long heapBytes(int totalBlocks, boolean prefixCaching) {
        long n = totalBlocks;
        long meta = (2 * n + 2) * NODE_INTS * Integer.BYTES;
        long perBlockArrays = n * (Long.BYTES + 2L * Integer.BYTES) + (n + 1) * Integer.BYTES;
        return meta + perBlockArrays + LongIntTable.heapBytes(indexExpected(totalBlocks, prefixCaching));
    }

    /** Entries the prefix index is sized for. */
    static int indexExpected(int totalBlocks, boolean prefixCaching) {
        return prefixCaching ? totalBlocks : 4;
    }
}
