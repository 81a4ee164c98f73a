package io.servesim.cluster;

import io.servesim.engine.Engine;
import io.servesim.engine.KvCache;
import io.servesim.engine.LoadBoard;
import io.servesim.engine.Request;
import java.util.List;
import java.util.Set;

/**
 * What the control plane sees of the instances: every {@link Signal} read through its
 * observability mode. Immediate and on-demand signals read live engine state; periodic ones read
 * the values captured at the last scrape ({@link #scrape}, {@link ScrapedSignals}). The prefix-cache
 * indexes follow the same rule ({@link PrefixIndexes}): immediate applies every stored/removed block
 * event at once, periodic buffers them per instance and applies them at the scrape (incrementally,
 * never copying a cache). Recent TTFT/TPOT are exponentially weighted means over completions
 * ({@link RecentLatencies}).
 *
 * <p>Policies see the instances as positions {@code 0 .. instances() - 1}: every instance of a fixed
 * fleet, or the READY replicas of an autoscaled one ({@link Fleet}, ascending ids); {@link #id} maps a
 * position to the engine id. Replicas attach when ready and detach when gone (their prefix-index
 * entries, scraped values and recent-latency means are cleared).
 */
public final class ClusterView {
    private final Engine[] engines;
    private final Observability observability;
    private final ScrapedSignals scraped;
    private final RecentLatencies recent;
    private final PrefixIndexes prefixes;
    /** The attached engines' queue, running, in-flight and KV counts, per engine id in contiguous arrays. */
    private final LoadBoard board;
    private final int[] readyOverlap;
    private final int[] cpuOverlap;
    private final Fleet fleet;
    /** A pool's view ({@link #pool}): its first engine id and instance count; 0 and all engines otherwise. */
    private final int poolOffset;
    private final int poolSize;

    public ClusterView(Engine[] engines, Observability observability, Set<Signal> read) {
        this(engines, null, observability, read);
    }

    /**
     * A view of the ready replicas of {@code fleet} (null: every engine, a fixed fleet) for a routing
     * policy reading the signals {@code read}: the prefix indexes are kept only for those it reads.
     */
    public ClusterView(Engine[] engines, Fleet fleet, Observability observability, Set<Signal> read) {
        this.engines = engines;
        this.fleet = fleet;
        this.observability = observability;
        int n = engines.length;
        this.scraped = new ScrapedSignals(observability, n);
        this.recent = new RecentLatencies(n);
        this.prefixes = new PrefixIndexes(n, observability, read);
        this.board = new LoadBoard(n);
        this.readyOverlap = new int[n];
        this.cpuOverlap = new int[n];
        this.poolOffset = 0;
        this.poolSize = n;
        for (int i = 0; i < n; i++) {
            if (engines[i] != null) {
                attach(i);
            }
        }
    }

    /** A pool's view over the same state: engine ids {@code [offset, offset + size)} as positions {@code 0 .. size - 1}. */
    private ClusterView(ClusterView all, int offset, int size) {
        this.engines = all.engines;
        this.fleet = null;
        this.observability = all.observability;
        this.scraped = all.scraped;
        this.recent = all.recent;
        this.prefixes = all.prefixes;
        this.board = all.board;
        this.readyOverlap = new int[size];
        this.cpuOverlap = new int[size];
        this.poolOffset = offset;
        this.poolSize = size;
    }

    /**
     * The view a router of one pool gets (P/D disaggregation: the prefill or the decode pool), engine
     * ids {@code [offset, offset + size)} at positions {@code 0 .. size - 1}; signals, scrapes and
     * prefix indexes are this view's (a fixed fleet's only).
     */
    public ClusterView pool(int offset, int size) {
        if (fleet != null || poolSize != engines.length || offset < 0 || size < 1 || offset + size > engines.length) {
            throw new IllegalArgumentException("pool [" + offset + ", " + (offset + size) + ") of a view of "
                    + engines.length + " engines" + (fleet != null ? " with a fleet" : ""));
        }
        return new ClusterView(this, offset, size);
    }

    /**
     * Engine {@code id} joins (at start, or a replica becoming ready): its cache events feed the prefix
     * indexes and it keeps its request and KV counts in this view's {@link LoadBoard}.
     */
    public void attach(int id) {
        engines[id].publishTo(board);
        prefixes.attach(id, engines[id].kvCache());
    }

    /** Engine {@code id} is gone: nothing of it stays visible to the next replica in its slot. */
    public void detach(int id) {
        prefixes.clear(id);
        recent.clear(id);
        scraped.clear(id);
    }

    /** Instances a routing decision chooses among (positions {@code 0 .. instances() - 1}). */
    public int instances() {
        return fleet == null ? poolSize : fleet.readyCount();
    }

    /** Engine id of position {@code k}. */
    public int id(int k) {
        return fleet == null ? poolOffset + k : fleet.readyId(k);
    }

    /**
     * Whether engine {@code id} belongs to the instances this view routes over: a P/D pool's ids, or any engine
     * slot of the cluster (under autoscaling a slot may still be unroutable: not ready).
     */
    public boolean covers(int id) {
        return id >= poolOffset && id < poolOffset + poolSize;
    }

    /** The engine with id {@code id} (null for a free slot). */
    public Engine engine(int id) {
        return engines[id];
    }

    public Observability observability() {
        return observability;
    }

    /** KV block size shared by all instances. */
    public int blockSizeTokens() {
        return engines[id(0)].kvCache().blockSize();
    }

    /** The value of {@code s} at instance {@code i} as the control plane sees it now. */
    public double value(Signal s, int i) {
        int id = id(i);
        if (scraped.periodic(s.ordinal())) {
            return scraped.value(s.ordinal(), id);
        }
        return live(s, id);
    }

    // The three signals every load-based router reads for every instance on every decision: the
    // same values as value(s, i), without the signal switch.
    private static final int QUEUE_DEPTH = Signal.QUEUE_DEPTH.ordinal();
    private static final int RUNNING = Signal.RUNNING.ordinal();
    private static final int KV_UTILIZATION = Signal.KV_UTILIZATION.ordinal();

    /** Engine id of position {@code i}, whose board entry debug mode checks against the engine's live counts. */
    private int boardId(int i) {
        int id = id(i);
        assert board.matches(engines[id]) : "routing board out of date for engine " + id;
        return id;
    }

    public int queueDepth(int i) {
        int id = boardId(i);
        return scraped.periodic(QUEUE_DEPTH) ? (int) scraped.value(QUEUE_DEPTH, id) : board.queued(id);
    }

    public int running(int i) {
        int id = boardId(i);
        return scraped.periodic(RUNNING) ? (int) scraped.value(RUNNING, id) : board.running(id);
    }

    public double kvUtilization(int i) {
        int id = boardId(i);
        return scraped.periodic(KV_UTILIZATION) ? scraped.value(KV_UTILIZATION, id) : board.kvUtilization(id);
    }

    public int freeKvBlocks(int i) { return (int) value(Signal.FREE_KV_BLOCKS, i); }
    public long inFlight(int i) { return (long) value(Signal.IN_FLIGHT, i); }
    public double recentTtftUs(int i) { return value(Signal.RECENT_TTFT, i); }
    public double recentTpotUs(int i) { return value(Signal.RECENT_TPOT, i); }
    /**
     * For every position {@code i}: {@code loads[i] = queueDepth(i) + running(i) + inTransit(i)}
     * (BLIS's effective load), {@code queues[i] = queueDepth(i)} and {@code kvUtilizations[i] =
     * kvUtilization(i)}, the same values those calls return, in one pass with the position mapping
     * and the observability checks out of the loop: what a load-aware router reads for every
     * instance on every decision. A null array is not filled.
     */
    public void readLoads(long[] loads, int[] queues, double[] kvUtilizations) {
        int n = instances();
        double[] scrapedQueue = scraped.values(QUEUE_DEPTH);
        double[] scrapedRunning = scraped.values(RUNNING);
        double[] scrapedKv = scraped.values(KV_UTILIZATION);
        for (int i = 0; i < n; i++) {
            int id = boardId(i);
            int queued = board.queued(id);
            int running = board.running(id);
            int seenQueue = scrapedQueue == null ? queued : (int) scrapedQueue[id];
            if (loads != null) {
                int seenRunning = scrapedRunning == null ? running : (int) scrapedRunning[id];
                loads[i] = seenQueue + seenRunning + (board.inFlight(id) - queued - running);
            }
            if (queues != null) {
                queues[i] = seenQueue;
            }
            if (kvUtilizations != null) {
                kvUtilizations[i] = scrapedKv == null ? board.kvUtilization(id) : scrapedKv[id];
            }
            assert readsAsOneByOne(i, loads, queues, kvUtilizations) : "readLoads differs from the accessors at position " + i;
        }
    }

    /** Debug mode: position {@code i} of {@link #readLoads} equals what the one-value accessors return. */
    private boolean readsAsOneByOne(int i, long[] loads, int[] queues, double[] kvUtilizations) {
        return (loads == null || loads[i] == queueDepth(i) + running(i) + inTransit(i))
                && (queues == null || queues[i] == queueDepth(i))
                && (kvUtilizations == null || Double.compare(kvUtilizations[i], kvUtilization(i)) == 0);
    }

    public double cacheHitRate(int i) { return value(Signal.CACHE_HIT_RATE, i); }
    public double estimatedWaitUs(int i) { return value(Signal.ESTIMATED_WAIT, i); }
    /**
     * Requests routed to instance {@code i} that are not (yet, or any more) waiting or running: in
     * queueing delay, or finished but not yet left. The router knows what it sent, so this is
     * always current.
     */
    public long inTransit(int i) {
        int id = boardId(i);
        return board.inFlight(id) - board.queued(id) - board.running(id);
    }

    /**
     * Prompt KV blocks of the requests routed to instance {@code i} that have not left (waiting,
     * running or in queueing delay). Router-local bookkeeping of its own dispatches, as NVIDIA Dynamo's
     * KV router keeps, so it is always current whatever the observability settings.
     */
    public long inFlightPromptBlocks(int i) { return engines[id(i)].inFlightPromptBlocks(); }
    public int totalKvBlocks(int i) { return engines[id(i)].kvCache().totalBlocks(); }

    /** Whether {@link #prefixOverlapBlocks} measures anything: a policy reads the prefix index. */
    public boolean prefixOverlapKnown() {
        return prefixes.gpuIndexed();
    }

    /**
     * Per-position count of leading prompt blocks of {@code r} cached there (as seen); the returned
     * array is reused by the next call. Returns all zeros when no policy needs the index.
     */
    public int[] prefixOverlapBlocks(Request r) {
        int[] byId = prefixes.gpuOverlapById(r, blockSizeTokens(), engines, this);
        if (fleet == null && poolSize == engines.length) {
            return byId;
        }
        for (int k = 0, n = instances(); k < n; k++) {
            readyOverlap[k] = byId[id(k)];
        }
        return readyOverlap;
    }

    /**
     * Per-position count of the prompt blocks of {@code r} held only in the instance's CPU tier: the
     * consecutive blocks right after its GPU overlap {@code gpuOverlap[k]} (from
     * {@link #prefixOverlapBlocks}) that its CPU tier holds, as the engine's lookup continues into the
     * tier ({@code KvCache.lookupPrefix}). The array is reused by the next call; all zeros when no
     * policy reads {@link Signal#CPU_PREFIX_CACHE}.
     */
    public int[] cpuPrefixOverlapBlocks(Request r, int[] gpuOverlap) {
        int n = instances();
        int bs = blockSizeTokens();
        int max = (r.inputTokens() - 1) / bs;
        for (int k = 0; k < n; k++) {
            int b = gpuOverlap[k];
            if (prefixes.cpuIndexed()) {
                int id = id(k);
                while (b < max && prefixes.cpuHolds(id, r.blockHash(b, bs))) {
                    b++;
                }
            }
            cpuOverlap[k] = b - gpuOverlap[k];
        }
        return cpuOverlap;
    }

    public double kvCpuUtilization(int i) { return value(Signal.KV_CPU_UTILIZATION, i); }
    public double gpuHitRate(int i) { return value(Signal.GPU_HIT_RATE, i); }
    public double cpuHitRate(int i) { return value(Signal.CPU_HIT_RATE, i); }

    /** An immutable snapshot of instance {@code i} (for traces and tests). */
    public InstanceSnapshot snapshot(int i, long nowUs) {
        return new InstanceSnapshot(id(i), nowUs, queueDepth(i), running(i), kvUtilization(i), freeKvBlocks(i),
                inFlight(i), recentTtftUs(i), recentTpotUs(i), cacheHitRate(i), estimatedWaitUs(i),
                new InstanceSnapshot.Tiers(kvCpuUtilization(i), gpuHitRate(i), cpuHitRate(i)));
    }

    /** Captures every periodic signal whose interval is {@code intervalUs} (a scrape). */
    public void scrape(long intervalUs) {
        scraped.scrape(intervalUs, engines, this::live, prefixes);
    }

    /** Distinct scrape intervals of the periodic signals (each drives one recurring scrape). */
    public List<Long> scrapeIntervals() {
        return scraped.intervals();
    }

    /**
     * Latency a routing decision pays to pull the on-demand signals among {@code read} (the largest of
     * them); 0 when it reads none.
     */
    public long onDemandLatencyUs(Set<Signal> read) {
        return scraped.onDemandLatencyUs(read);
    }

    /** A request left instance {@code i}: update its recent TTFT/TPOT. */
    public void onCompleted(int i, long ttftUs, double tpotUs) {
        recent.onCompleted(i, ttftUs, tpotUs);
    }

    /** Instance {@code i} ran a step of {@code stepUs}. */
    public void onStep(int i, long stepUs) {
        recent.onStep(i, stepUs);
    }

    private double live(Signal s, int i) {
        Engine e = engines[i];
        KvCache kv = e.kvCache();
        return switch (s) {
            case QUEUE_DEPTH -> e.queueDepth();
            case RUNNING -> e.runningCount();
            case KV_UTILIZATION -> kv.utilization();
            case FREE_KV_BLOCKS -> kv.freeBlocks();
            case IN_FLIGHT -> e.inFlight();
            case RECENT_TTFT -> recent.ttftUs(i);
            case RECENT_TPOT -> recent.tpotUs(i);
            case CACHE_HIT_RATE -> kv.queriedTokens() == 0 ? 0 : (double) kv.hitTokens() / kv.queriedTokens();
            case ESTIMATED_WAIT -> (double) e.waitingPromptTokens() / e.config().maxNumBatchedTokens() * recent.stepUs(i);
            case PREFIX_CACHE -> prefixes.gpuSize(engines);
            case KV_CPU_UTILIZATION -> kv.offload() == null ? 0 : kv.offload().cpuUtilization();
            case GPU_HIT_RATE -> kv.queriedTokens() == 0 ? 0 : (double) (kv.hitTokens() - kv.cpuHitTokens()) / kv.queriedTokens();
            case CPU_HIT_RATE -> kv.queriedTokens() == 0 ? 0 : (double) kv.cpuHitTokens() / kv.queriedTokens();
            case CPU_PREFIX_CACHE -> prefixes.cpuSize();
        };
    }
}
