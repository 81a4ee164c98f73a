package io.servesim.policy.code;

import io.servesim.cluster.ClusterView;
import io.servesim.cluster.Signal;
import io.servesim.engine.Request;
import io.servesim.policy.api.Instances;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The control plane's view of the instances ({@link ClusterView}) as the policy API shows it, for one routing
 * decision at a time (no allocation per decision; the prefix overlaps are computed once per decision, when first
 * read). Which {@link Signal}s a code router reads follows from the {@link Instances} methods its source calls
 * ({@link #SIGNALS}).
 */
final class InstancesAdapter implements Instances {
    /** The signals each {@link Instances} method reads; a method not listed reads none. */
    static final Map<String, Set<Signal>> SIGNALS = Map.ofEntries(
            Map.entry("queueDepth", Set.of(Signal.QUEUE_DEPTH)),
            Map.entry("running", Set.of(Signal.RUNNING)),
            Map.entry("load", Set.of(Signal.QUEUE_DEPTH, Signal.RUNNING)),
            Map.entry("inFlight", Set.of(Signal.IN_FLIGHT)),
            Map.entry("kvUtilization", Set.of(Signal.KV_UTILIZATION)),
            Map.entry("freeKvBlocks", Set.of(Signal.FREE_KV_BLOCKS)),
            Map.entry("recentTtftUs", Set.of(Signal.RECENT_TTFT)),
            Map.entry("recentTpotUs", Set.of(Signal.RECENT_TPOT)),
            Map.entry("cacheHitRate", Set.of(Signal.CACHE_HIT_RATE)),
            Map.entry("estimatedWaitUs", Set.of(Signal.ESTIMATED_WAIT)),
            Map.entry("cachedPrefixBlocks", Set.of(Signal.PREFIX_CACHE)),
            Map.entry("cpuCachedPrefixBlocks", Set.of(Signal.PREFIX_CACHE, Signal.CPU_PREFIX_CACHE)),
            Map.entry("kvCpuUtilization", Set.of(Signal.KV_CPU_UTILIZATION)),
            Map.entry("gpuHitRate", Set.of(Signal.GPU_HIT_RATE)),
            Map.entry("cpuHitRate", Set.of(Signal.CPU_HIT_RATE)));

    private ClusterView v;
    private Request r;
    private int n;
    private int[] gpuOverlap = new int[0];
    private int[] cpuOverlap = new int[0];
    private boolean gpuRead;
    private boolean cpuRead;

    /** The signals read by a source that calls {@code methods} of {@link Instances}. */
    static Set<Signal> signalsOf(Set<String> methods) {
        Set<Signal> out = EnumSet.noneOf(Signal.class);
        methods.forEach(m -> out.addAll(SIGNALS.getOrDefault(m, Set.of())));
        return out;
    }

    InstancesAdapter of(ClusterView view, Request request) {
        this.v = view;
        this.r = request;
        this.n = view.instances();
        gpuRead = false;
        cpuRead = false;
        return this;
    }

    private int at(int position) {
        if (position < 0 || position >= n) {
            throw new IndexOutOfBoundsException("position " + position + " of " + n + " instances");
        }
        return position;
    }

    @Override public int count() { return n; }
    @Override public int id(int position) { return v.id(at(position)); }
    @Override public int queueDepth(int position) { return v.queueDepth(at(position)); }
    @Override public int running(int position) { return v.running(at(position)); }
    @Override public long inTransit(int position) { return v.inTransit(at(position)); }
    @Override public long inFlight(int position) { return v.inFlight(at(position)); }
    @Override public double kvUtilization(int position) { return v.kvUtilization(at(position)); }
    @Override public int freeKvBlocks(int position) { return v.freeKvBlocks(at(position)); }
    @Override public int totalKvBlocks(int position) { return v.totalKvBlocks(at(position)); }
    @Override public double recentTtftUs(int position) { return v.recentTtftUs(at(position)); }
    @Override public double recentTpotUs(int position) { return v.recentTpotUs(at(position)); }
    @Override public double cacheHitRate(int position) { return v.cacheHitRate(at(position)); }
    @Override public double estimatedWaitUs(int position) { return v.estimatedWaitUs(at(position)); }
    @Override public double kvCpuUtilization(int position) { return v.kvCpuUtilization(at(position)); }
    @Override public double gpuHitRate(int position) { return v.gpuHitRate(at(position)); }
    @Override public double cpuHitRate(int position) { return v.cpuHitRate(at(position)); }
    @Override public int blockSizeTokens() { return v.blockSizeTokens(); }

    @Override
    public long load(int position) {
        int i = at(position);
        return v.queueDepth(i) + v.running(i) + v.inTransit(i);
    }

    @Override
    public int cachedPrefixBlocks(int position) {
        int i = at(position);
        readGpuOverlap();
        return gpuOverlap[i];
    }

    @Override
    public int cpuCachedPrefixBlocks(int position) {
        int i = at(position);
        if (!cpuRead) {
            readGpuOverlap();
            cpuOverlap = copy(v.cpuPrefixOverlapBlocks(r, gpuOverlap), cpuOverlap);
            cpuRead = true;
        }
        return cpuOverlap[i];
    }

    private void readGpuOverlap() {
        if (!gpuRead) {
            gpuOverlap = copy(v.prefixOverlapBlocks(r), gpuOverlap);
            gpuRead = true;
        }
    }

    /** The first {@link #n} values of the view's reused array, in {@code into} (grown when too short). */
    private int[] copy(int[] from, int[] into) {
        int[] out = into.length >= n ? into : new int[n];
        System.arraycopy(from, 0, out, 0, n);
        return out;
    }
}
