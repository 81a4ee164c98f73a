package io.servesim.policy.routing;

import io.servesim.cluster.ClusterView;
import io.servesim.cluster.RoutingPolicy;
import io.servesim.cluster.Signal;
import io.servesim.config.Setting;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code weighted-scoring {cache_affinity, load, queue_depth, kv_utilization}} (default weights 1, 1,
 * 0, 0.5; each >= 0), the llm-d inference scheduler's scorer plug-ins: each instance scores
 * {@code cache_affinity x overlap/promptBlocks + load x (1 - load/maxLoad) + queue_depth x
 * (1 - queue/maxQueue) + kv_utilization x (1 - kvUtil)}, every component in [0, 1]; the highest
 * total wins (ties: lowest id). The per-component and total scores of the last decision are kept for traces.
 */
final class WeightedScoring implements RoutingPolicy {
    private static final String AT = "policies.routing[weighted-scoring].params.";
    static final Setting<Double> CACHE_AFFINITY = Setting.of(AT + "cache_affinity", Weights.TYPE, 1.0,
            "Weight of the prefix-cache overlap (llm-d's prefix-cache scorer).");
    static final Setting<Double> LOAD = Setting.of(AT + "load", Weights.TYPE, 1.0,
            "Weight of 1 - load / max load (llm-d's load-aware scorer).");
    static final Setting<Double> QUEUE_DEPTH = Setting.of(AT + "queue_depth", Weights.TYPE, 0.0,
            "Weight of 1 - queue / max queue (llm-d's queue scorer).");
    static final Setting<Double> KV_UTILIZATION = Setting.of(AT + "kv_utilization", Weights.TYPE, 0.5,
            "Weight of 1 - KV utilization (llm-d's KV-cache utilization scorer).");
    static final List<Setting<?>> PARAMS = List.of(CACHE_AFFINITY, LOAD, QUEUE_DEPTH, KV_UTILIZATION);

    private final double wCache;
    private final double wLoad;
    private final double wQueue;
    private final double wKv;
    private final ScoreSheet sheet;
    private final double[] cache;
    private final double[] load;
    private final double[] queue;
    private final double[] kv;
    private final Set<Signal> signals;
    private final double[] total;
    // The last decision's inputs per position, turned into the components only when a trace asks
    // (lastBreakdown): a decision computes just the terms its weights keep.
    private final int[] overlapBlocks;
    private final long[] loads;
    private final int[] queues;
    private final double[] kvUtilizations;
    private int lastInstances;
    private int lastPromptBlocks;
    private boolean lastHadOverlap;
    private long lastMaxLoad;
    private int lastMaxQueue;
    private boolean breakdownStale;

    private WeightedScoring(double wCache, double wLoad, double wQueue, double wKv, int instances) {
        this.wCache = wCache;
        this.wLoad = wLoad;
        this.wQueue = wQueue;
        this.wKv = wKv;
        sheet = new ScoreSheet(instances);
        total = sheet.scores;
        cache = sheet.component("cache_affinity");
        load = sheet.component("load");
        queue = sheet.component("queue_depth");
        kv = sheet.component("kv_utilization");
        overlapBlocks = new int[instances];
        loads = new long[instances];
        queues = new int[instances];
        kvUtilizations = new double[instances];
        EnumSet<Signal> read = EnumSet.noneOf(Signal.class);
        if (wCache > 0) {
            read.add(Signal.PREFIX_CACHE);
        }
        if (wLoad > 0) {
            read.addAll(Load.SIGNALS);
        }
        if (wQueue > 0) {
            read.add(Signal.QUEUE_DEPTH);
        }
        if (wKv > 0) {
            read.add(Signal.KV_UTILIZATION);
        }
        this.signals = Set.copyOf(read);
    }

    static RoutingPolicy create(PolicySpec spec, PolicyContext ctx) {
        return new WeightedScoring(spec.get(CACHE_AFFINITY), spec.get(LOAD), spec.get(QUEUE_DEPTH), spec.get(KV_UTILIZATION),
                ctx.instances());
    }

    /**
     * Scores every position and returns the best. A term whose weight is 0, or whose component is 0
     * (no cached blocks), adds +0.0 to the total and is skipped; the others are added in the order
     * of the formula, so the totals are the same doubles as evaluating it whole.
     */
    @Override
    public int route(Request r, ClusterView v, long nowUs) {
        int n = v.instances();
        int[] overlap = wCache != 0 ? v.prefixOverlapBlocks(r) : null;
        int promptBlocks = Math.max(1, (r.inputTokens() - 1) / v.blockSizeTokens());
        v.readLoads(loads, queues, kvUtilizations);
        long maxLoad = 0;
        int maxQueue = 0;
        for (int i = 0; i < n; i++) {
            maxLoad = Math.max(maxLoad, loads[i]);
            maxQueue = Math.max(maxQueue, queues[i]);
        }
        double maxLoadD = maxLoad;
        double maxQueueD = maxQueue;
        int best = 0;
        double bestScore = -Double.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            double score = 0;
            if (overlap != null && overlap[i] != 0) {
                score = wCache * ((double) overlap[i] / promptBlocks);
            }
            if (wLoad != 0) {
                score += wLoad * (maxLoad == 0 ? 1 : 1 - loads[i] / maxLoadD);
            }
            if (wQueue != 0) {
                score += wQueue * (maxQueue == 0 ? 1 : 1 - queues[i] / maxQueueD);
            }
            if (wKv != 0) {
                score += wKv * (1 - kvUtilizations[i]);
            }
            total[i] = score;
            if (score > bestScore) {
                bestScore = score;
                best = i;
            }
        }
        if (overlap != null) {
            System.arraycopy(overlap, 0, overlapBlocks, 0, n);
        }
        lastInstances = n;
        lastPromptBlocks = promptBlocks;
        lastHadOverlap = overlap != null;
        lastMaxLoad = maxLoad;
        lastMaxQueue = maxQueue;
        breakdownStale = true;
        return best;
    }

    /** The signals of the components with a positive weight (the others cannot change a decision). */
    @Override
    public Set<Signal> signalsRead() {
        return signals;
    }

    @Override
    public double[] lastScores() {
        return total;
    }

    /** The components of the last decision (each in [0, 1], before its weight), from its kept inputs. */
    @Override
    public Map<String, double[]> lastBreakdown() {
        if (breakdownStale) {
            double maxLoad = lastMaxLoad;
            double maxQueue = lastMaxQueue;
            for (int i = 0; i < lastInstances; i++) {
                cache[i] = lastHadOverlap ? (double) overlapBlocks[i] / lastPromptBlocks : 0;
                load[i] = maxLoad == 0 ? 1 : 1 - loads[i] / maxLoad;
                queue[i] = maxQueue == 0 ? 1 : 1 - queues[i] / maxQueue;
                kv[i] = 1 - kvUtilizations[i];
            }
            breakdownStale = false;
        }
        return sheet.components();
    }
}
