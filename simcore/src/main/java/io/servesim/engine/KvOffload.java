package io.servesim.engine;

/**
 * The CPU tier under one instance's GPU KV cache and the link between them: offload on GPU
 * eviction, reload on a prefix hit, transfer times, thrashing. After BLIS's tiered GPU + CPU cache
 * (inference-sim/inference-sim {@code sim/kv/tiered.go} at 615e627b: a reload costs
 * {@code baseLatency + ceil(blockSize / bandwidth)} per block; here a transfer costs
 * {@code base_latency + bytes / bandwidth}, as the BLIS macro plan's D.3 prices it, inference-sim/inference-sim
 * @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}):
 * <ul>
 *   <li><b>Offload.</b> When a block with a prefix hash is evicted from the GPU free queue while more
 *       than {@code kv_offload_threshold} of the GPU blocks are in use, its content is copied to the
 *       CPU tier ({@link CpuTier}, LRU) instead of being lost; a block whose copy is still resident
 *       is not copied again. vLLM's {@code OffloadingConnector} instead stores every full block as
 *       it is computed; BLIS's eviction-time offload moves fewer bytes for the
 *       same hits.</li>
 *   <li><b>Reload.</b> A prefix hit found in the CPU tier right after the GPU hits is loaded into
 *       fresh GPU blocks before the request's prefill proceeds ({@link KvTierConfig.Reload}).</li>
 *   <li><b>Link.</b> One link per instance, {@code kv_transfer_bandwidth} GB/s; transfers are
 *       <em>serialized</em> in issue order (first come, first served): a transfer starts when the
 *       link is free and occupies it for {@link KvTierConfig#transferUs}. An offload is one
 *       transfer per block, a reload one transfer per request. Both directions share the link
 *       (conservative: PCIe is full duplex), so offload traffic delays reloads.</li>
 *   <li><b>Thrashing.</b> A block reloaded less than {@value #THRASH_WINDOW_US} us after its copy
 *       was written counts once (BLIS's 1000-tick window, {@code sim/kv/tiered.go} at 615e627b:
 *       "offload followed by reload within 1000 ticks").</li>
 * </ul>
 * Counters are per instance and cumulative; nothing is allocated per call.
 */
public final class KvOffload {
    /** A reload this soon after the copy was written is thrashing (microseconds). */
    public static final long THRASH_WINDOW_US = 1000;

    private final KvTierConfig config;
    private final CpuTier cpu;
    /** Offload only while more GPU blocks than this are in use: used > threshold x total. */
    private final int offloadAboveUsedBlocks;
    private long nowUs;
    private long linkFreeUs;
    private long stallEndUs;
    private long offloadedBlocks;
    private long reloadedBlocks;
    private long reloads;
    private long thrashedBlocks;
    private long transferBytes;
    private long transferUs;

    KvOffload(KvTierConfig config, int gpuBlocks) {
        if (!config.enabled() || !config.isResolved()) {
            throw new IllegalArgumentException("KV offload needs a resolved CPU tier: " + config);
        }
        this.config = config;
        this.cpu = new CpuTier(config.cpuBlocks());
        this.offloadAboveUsedBlocks = (int) Math.floor(config.offloadThreshold() * gpuBlocks);
    }

    public KvTierConfig config() { return config; }

    /**
     * Observes the CPU tier's copies being stored and dropped (null: none): a router that credits
     * host-tier overlap apart needs to know which blocks sit there (NVIDIA Dynamo's
     * {@code router-concepts.md}, per-tier weights such as {@code host_cache_hit_weight}; llm-d's
     * kv-cache-manager tags blocks by tier, GPU 1.0, CPU 0.8).
     */
    public void setListener(KvBlockListener listener) {
        cpu.setListener(listener);
    }
    /** CPU-tier capacity in blocks. */
    public int cpuBlocks() { return cpu.capacity(); }
    /** CPU-tier blocks holding a copy. */
    public int cpuResidentBlocks() { return cpu.residentBlocks(); }
    /** Share of CPU-tier blocks holding a copy. */
    public double cpuUtilization() { return (double) cpu.residentBlocks() / cpu.capacity(); }
    /** Blocks copied GPU -> CPU. */
    public long offloadedBlocks() { return offloadedBlocks; }
    /** Blocks copied CPU -> GPU. */
    public long reloadedBlocks() { return reloadedBlocks; }
    /** Requests whose prefix was (partly) reloaded. */
    public long reloads() { return reloads; }
    /** Blocks reloaded within {@link #THRASH_WINDOW_US} of being offloaded. */
    public long thrashedBlocks() { return thrashedBlocks; }
    /** CPU copies dropped by LRU to make room. */
    public long cpuEvictions() { return cpu.evictions(); }
    /** Bytes moved over the link, both directions. */
    public long transferBytes() { return transferBytes; }
    /** Time the link spent transferring, microseconds. */
    public long transferUs() { return transferUs; }

    /** The engine's clock, set at the start of every step (offloads and reloads happen in batch formation). */
    void setNowUs(long nowUs) {
        this.nowUs = nowUs;
    }

    /** The GPU cache evicts the hashed block {@code blockHash} while {@code usedBlocks} blocks are in use. */
    void onGpuEviction(long blockHash, int usedBlocks) {
        if (usedBlocks > offloadAboveUsedBlocks && cpu.store(blockHash, nowUs)) {
            offloadedBlocks++;
            transfer(1);
        }
    }

    /** Consecutive blocks of {@code r} from block {@code from} (below {@code max}) held by the CPU tier. */
    int lookup(Request r, int from, int max, int blockSize) {
        int n = from;
        while (n < max && cpu.slotOf(r.blockHash(n, blockSize)) >= 0) {
            n++;
        }
        return n - from;
    }

    /**
     * Reloads blocks {@code [from, from + count)} of {@code r} (all resident: just looked up) and
     * returns when the transfer completes.
     */
    long reload(Request r, int from, int count, int blockSize) {
        for (int b = from; b < from + count; b++) {
            readForReload(r.blockHash(b, blockSize));
        }
        return transferReload(count);
    }

    /**
     * Reads the CPU copy of {@code blockHash} for a reload (thrashing check, LRU touch); false, and
     * nothing read, when the tier holds no copy.
     */
    boolean readForReload(long blockHash) {
        int slot = cpu.slotOf(blockHash);
        if (slot < 0) {
            return false;
        }
        if (nowUs - cpu.storedUs(slot) < THRASH_WINDOW_US) {
            thrashedBlocks++;
        }
        cpu.touch(slot);
        return true;
    }

    /**
     * Moves {@code count} blocks just read ({@link #readForReload}) over the link as one transfer and
     * returns when it completes; with {@code kv_reload: step}, and for BLIS's reloads on allocation
     * failure ({@link FailureReload}), the current step waits for it.
     */
    long transferReload(int count) {
        reloadedBlocks += count;
        reloads++;
        long endUs = transfer(count);
        if (config.reload() == KvTierConfig.Reload.STEP || config.reloadOnAllocationFailure()) {
            stallEndUs = Math.max(stallEndUs, endUs);
        }
        return endUs;
    }

    /** {@code kv_reload: step}: how long the current step waits for this step's reloads (then forgotten). */
    long takeStallUs() {
        long stall = Math.max(0, stallEndUs - nowUs);
        stallEndUs = 0;
        return stall;
    }

    private long transfer(int blocks) {
        long durationUs = config.transferUs(blocks);
        linkFreeUs = Math.max(nowUs, linkFreeUs) + durationUs;
        transferBytes += blocks * config.bytesPerBlock();
        transferUs += durationUs;
        return linkFreeUs;
    }

    void checkInvariants() {
        cpu.checkInvariants();
    }
}
