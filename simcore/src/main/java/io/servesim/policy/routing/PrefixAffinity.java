package io.servesim.policy.routing;

import io.servesim.cluster.ClusterView;
import io.servesim.cluster.RoutingPolicy;
import io.servesim.cluster.Signal;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.Map;
import java.util.Set;

/**
 * {@code prefix-affinity}: the instance caching the longest prefix of the prompt; on a miss (no
 * instance caches its first block) least-loaded; ties by load then id. No params. Its score is
 * what it maximizes: the cached prefix blocks on a hit, minus the load on a miss (components
 * {@code prefix_overlap_blocks} and {@code load}).
 */
final class PrefixAffinity implements RoutingPolicy {
    private static final Set<Signal> SIGNALS =
            Set.of(Signal.PREFIX_CACHE, Signal.QUEUE_DEPTH, Signal.RUNNING, Signal.KV_UTILIZATION);

    private final double[] overlaps;
    private final double[] loads;
    private final ScoreSheet sheet;
    private final double[] scores;

    private PrefixAffinity(int instances) {
        sheet = new ScoreSheet(instances);
        scores = sheet.scores;
        overlaps = sheet.component("prefix_overlap_blocks");
        loads = sheet.component("load");
    }

    static RoutingPolicy create(PolicySpec spec, PolicyContext ctx) {
        return new PrefixAffinity(ctx.instances());
    }

    @Override
    public int route(Request r, ClusterView v, long nowUs) {
        int[] overlap = v.prefixOverlapBlocks(r);
        int n = v.instances();
        int best = -1;
        for (int i = 0; i < n; i++) {
            overlaps[i] = overlap[i];
            loads[i] = Load.of(v, i);
            if (overlap[i] > 0 && (best < 0 || overlap[i] > overlap[best]
                    || (overlap[i] == overlap[best] && loads[i] < loads[best]))) {
                best = i;
            }
        }
        boolean hit = best >= 0;
        for (int i = 0; i < n; i++) {
            scores[i] = hit ? overlaps[i] : -loads[i];
        }
        return hit ? best : Load.leastLoaded(v);
    }

    @Override
    public double[] lastScores() {
        return scores;
    }

    @Override
    public Map<String, double[]> lastBreakdown() {
        return sheet.components();
    }

    /** The prefix index, and the signals of the least-loaded fallback ({@link Load#LEAST_LOADED_SIGNALS}). */
    @Override
    public Set<Signal> signalsRead() {
        return SIGNALS;
    }
}
