package io.servesim.engine;

/**
 * The counts a load-aware router reads for every instance on every decision (waiting, running and
 * in-flight requests, free and total KV blocks), per engine id in contiguous arrays. Reading them
 * through each engine's objects costs a chain of cache misses per instance (engine, wait queue and its
 * deques, running batch, KV cache, free queue): on 64 instances that was ~15% of a run. An engine
 * {@link Engine#publishTo publishes} into the board: its KV cache keeps its free count there itself,
 * and the engine writes its request counts at the end of every call that changes them, so between
 * events the board equals the engines' live state (checked on every read in debug mode by the
 * control plane's view).
 */
public final class LoadBoard {
    final int[] queued;
    final int[] running;
    final long[] inFlight;
    final int[] freeBlocks;
    final int[] totalBlocks;

    /** A board for engine ids {@code [0, engines)}. */
    public LoadBoard(int engines) {
        this.queued = new int[engines];
        this.running = new int[engines];
        this.inFlight = new long[engines];
        this.freeBlocks = new int[engines];
        this.totalBlocks = new int[engines];
    }

    /** {@link Engine#queueDepth()} of engine {@code id}. */
    public int queued(int id) { return queued[id]; }
    /** {@link Engine#runningCount()} of engine {@code id}. */
    public int running(int id) { return running[id]; }
    /** {@link Engine#inFlight()} of engine {@code id}. */
    public long inFlight(int id) { return inFlight[id]; }

    /** {@link KvCache#utilization()} of engine {@code id}'s cache (the same arithmetic, so the same double). */
    public double kvUtilization(int id) {
        return (double) (totalBlocks[id] - freeBlocks[id]) / totalBlocks[id];
    }

    /** Whether the board holds engine {@code e}'s live counts (debug-mode check of every read). */
    public boolean matches(Engine e) {
        int id = e.id();
        return queued[id] == e.queueDepth() && running[id] == e.runningCount() && inFlight[id] == e.inFlight()
                && freeBlocks[id] == e.kvCache().freeBlocks() && totalBlocks[id] == e.kvCache().totalBlocks();
    }
}
