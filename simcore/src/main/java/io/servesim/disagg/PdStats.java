package io.servesim.disagg;

import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * What a P/D run measured, as raw tallies and samples (the run turns them into its summary): the
 * decider's choices, per pool its busy time and queueing delays, and per completed transfer its bytes,
 * time, time lost to shared bandwidth and time waiting for decode blocks. O(1) per event; one sample
 * per request.
 */
public final class PdStats {
    long remote;
    long local;
    final long[] busyUs = new long[2];
    final double[] kvBusyWeighted = new double[2];
    final long[] steps = new long[2];
    /** Queueing delays per pool: prefill, its enqueue (the engine core taking it in) to its first step; decode, arrival of its KV (or its enqueue) to its first step there. */
    final LongArrayList[] queueingUs = {new LongArrayList(), new LongArrayList()};
    final LongArrayList transferUs = new LongArrayList();
    final LongArrayList bandwidthWaitUs = new LongArrayList();
    final LongArrayList blockWaitUs = new LongArrayList();
    long transfers;
    long transferBytes;
    long blockWaits;

    /** Requests whose prefill ran on the prefill pool. */
    public long remote() { return remote; }
    /** Requests served whole by the decode pool. */
    public long local() { return local; }
    /** Engine-busy microseconds of pool {@code p} (0 prefill, 1 decode), summed over its replicas. */
    public long busyUs(int p) { return busyUs[p]; }
    /** Step-time-weighted KV utilization sum of pool {@code p} (divide by {@link #busyUs}). */
    public double kvBusyWeighted(int p) { return kvBusyWeighted[p]; }
    public long steps(int p) { return steps[p]; }
    public LongArrayList queueingUs(int p) { return queueingUs[p]; }
    /** Completed transfers. */
    public long transfers() { return transfers; }
    /** Bytes of completed transfers, every stream. */
    public long transferBytes() { return transferBytes; }
    /** Per completed transfer, its start (blocks reserved) to the KV's arrival. */
    public LongArrayList transferUs() { return transferUs; }
    /** Per completed transfer, the time its bytes took beyond their time alone on the link. */
    public LongArrayList bandwidthWaitUs() { return bandwidthWaitUs; }
    /** Transfers that waited for blocks in their decode instance's queue. */
    public long blockWaits() { return blockWaits; }
    /** Per started transfer, the prefill's end to the decode blocks' reservation (0 when there was room). */
    public LongArrayList blockWaitUs() { return blockWaitUs; }
}
