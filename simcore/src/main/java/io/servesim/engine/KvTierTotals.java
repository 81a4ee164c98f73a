package io.servesim.engine;

/**
 * The KV tiers' cumulative counters summed over caches: those of the replicas autoscaling retired
 * (their engines are gone by the end of the run, so their counts are taken as they retire, as
 * {@code cluster.ScaleCounters} does for their other statistics), then the live ones', for the
 * run's {@code kv_tiers} summary.
 */
public final class KvTierTotals {
    private long hitTokens;
    private long cpuHitTokens;
    private long queriedTokens;
    private long preemptedHitTokens;
    private long preemptedCpuHitTokens;
    private long preemptedQueriedTokens;
    private int cpuBlocks;
    private long offloadedBlocks;
    private long reloadedBlocks;
    private long cpuEvictions;
    private long transferBytes;
    private long transferUs;
    private long thrashedBlocks;

    /** Adds {@code kv}'s counters (first admissions' and readmissions' hits and lookups; its CPU tier's, if any). */
    public void add(KvCache kv) {
        hitTokens += kv.hitTokens();
        cpuHitTokens += kv.cpuHitTokens();
        queriedTokens += kv.queriedTokens();
        preemptedHitTokens += kv.preemptedHitTokens();
        preemptedCpuHitTokens += kv.preemptedCpuHitTokens();
        preemptedQueriedTokens += kv.preemptedQueriedTokens();
        KvOffload o = kv.offload();
        if (o != null) {
            cpuBlocks = o.cpuBlocks();
            offloadedBlocks += o.offloadedBlocks();
            reloadedBlocks += o.reloadedBlocks();
            cpuEvictions += o.cpuEvictions();
            transferBytes += o.transferBytes();
            transferUs += o.transferUs();
            thrashedBlocks += o.thrashedBlocks();
        }
    }

    /** Adds the sums of {@code other}. */
    public void add(KvTierTotals other) {
        hitTokens += other.hitTokens;
        cpuHitTokens += other.cpuHitTokens;
        queriedTokens += other.queriedTokens;
        preemptedHitTokens += other.preemptedHitTokens;
        preemptedCpuHitTokens += other.preemptedCpuHitTokens;
        preemptedQueriedTokens += other.preemptedQueriedTokens;
        cpuBlocks = Math.max(cpuBlocks, other.cpuBlocks);
        offloadedBlocks += other.offloadedBlocks;
        reloadedBlocks += other.reloadedBlocks;
        cpuEvictions += other.cpuEvictions;
        transferBytes += other.transferBytes;
        transferUs += other.transferUs;
        thrashedBlocks += other.thrashedBlocks;
    }

    /** Prompt tokens found in either tier at first admissions. */
    public long hitTokens() { return hitTokens; }
    /** Of {@link #hitTokens()}, those found in a CPU tier. */
    public long cpuHitTokens() { return cpuHitTokens; }
    /** Prompt tokens looked up at first admissions. */
    public long queriedTokens() { return queriedTokens; }
    /** Tokens found in either tier at preempted requests' readmissions. */
    public long preemptedHitTokens() { return preemptedHitTokens; }
    /** Of {@link #preemptedHitTokens()}, those found in a CPU tier. */
    public long preemptedCpuHitTokens() { return preemptedCpuHitTokens; }
    /** Tokens looked up at preempted requests' readmissions. */
    public long preemptedQueriedTokens() { return preemptedQueriedTokens; }
    /** CPU-tier blocks per instance (0: no CPU tier). */
    public int cpuBlocks() { return cpuBlocks; }
    public long offloadedBlocks() { return offloadedBlocks; }
    public long reloadedBlocks() { return reloadedBlocks; }
    public long cpuEvictions() { return cpuEvictions; }
    public long transferBytes() { return transferBytes; }
    public long transferUs() { return transferUs; }
    public long thrashedBlocks() { return thrashedBlocks; }
}
