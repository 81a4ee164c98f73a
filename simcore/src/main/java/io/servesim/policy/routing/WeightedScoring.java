package io.servesim.policy.routing;

import io.servesim.cluster.ClusterView;
import io.servesim.cluster.RoutingPolicy;
import io.servesim.cluster.Signal;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.EnumSet;
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
        spec.requireOnly(Set.of("cache_affinity", "load", "queue_depth", "kv_utilization"));
        return new WeightedScoring(spec.nonNegative("cache_affinity", 1), spec.nonNegative("load", 1),
                spec.nonNegative("queue_depth", 0), spec.nonNegative("kv_utilization", 0.5), ctx.instances());
    }

    @Override
    public int route(Request r, ClusterView v, long nowUs) {
        int n = v.instances();
        int[] overlap = wCache != 0 ? v.prefixOverlapBlocks(r) : null;
        int promptBlocks = Math.max(1, (r.inputTokens() - 1) / v.blockSizeTokens());
        double maxLoad = 0;
        double maxQueue = 0;
        for (int i = 0; i < n; i++) { // raw values first (each instance's signals read once), scores below
            load[i] = Load.of(v, i);
            queue[i] = v.queueDepth(i);
            maxLoad = Math.max(maxLoad, load[i]);
            maxQueue = Math.max(maxQueue, queue[i]);
        }
        int best = 0;
        double bestScore = -Double.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            cache[i] = overlap == null ? 0 : (double) overlap[i] / promptBlocks;
            load[i] = maxLoad == 0 ? 1 : 1 - load[i] / maxLoad;
            queue[i] = maxQueue == 0 ? 1 : 1 - queue[i] / maxQueue;
            kv[i] = 1 - v.kvUtilization(i);
            double score = total[i] = wCache * cache[i] + wLoad * load[i] + wQueue * queue[i] + wKv * kv[i];
            if (score > bestScore) {
                bestScore = score;
                best = i;
            }
        }
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

    @Override
    public Map<String, double[]> lastBreakdown() {
        return sheet.components();
    }
}
