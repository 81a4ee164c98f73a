package io.servesim.policy.routing;

import io.servesim.cluster.ClusterView;
import io.servesim.cluster.RoutingPolicy;
import io.servesim.cluster.Signal;
import io.servesim.config.ConfigException;
import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import io.servesim.engine.Request;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code kv-router {overlap_weight, cpu_hit_weight}}: NVIDIA Dynamo's KV-aware router cost
 * {@code overlap_weight x (prompt blocks to prefill) + potential active blocks} (its
 * {@code DefaultWorkerSelector} logit at temperature 0), lowest cost wins; default weight 1.
 * Active blocks are the router's own bookkeeping of what it dispatched (Dynamo
 * {@code docs/design_docs/router_design.md}: incremented when a request is added, decremented
 * when it completes), here the prompt blocks of the instance's in-flight requests, queued ones
 * included, plus the new request's; Dynamo also adds blocks as tokens stream, which this omits.
 * Counting only the KV blocks an engine has allocated would hide its wait queue and pile
 * requests onto the instance holding a popular prefix once its cache is full.
 *
 * <p>Overlap is the GPU caches' ({@link Signal#PREFIX_CACHE}). With a CPU KV tier, the blocks
 * right after it that an instance holds only in its CPU tier ({@link Signal#CPU_PREFIX_CACHE})
 * count {@code cpu_hit_weight} in [0, 1] each, as Dynamo credits host-tier overlap apart from
 * device overlap ({@code router-concepts.md}: per-tier weights, {@code host_cache_hit_weight}) and
 * llm-d's kv-cache-manager scores CPU blocks 0.8 of GPU ones: they are hits, but each costs a
 * transfer. The default 0 is the router before the tier was visible to it (its index knew GPU blocks
 * only), so it then neither reads nor keeps the CPU index; 1 credits CPU blocks as GPU ones.
 *
 * <p>Its score is minus the cost (components {@code overlap_blocks}, the credited overlap, and
 * {@code active_blocks}).
 */
final class KvRouter implements RoutingPolicy {
    private static final String AT = "policies.routing[kv-router].params.";
    static final Setting<Double> OVERLAP_WEIGHT = Setting.of(AT + "overlap_weight", Weights.TYPE, 1.0,
            "Weight of the prompt blocks to prefill against the active blocks (Dynamo's overlap_score_weight).");
    static final Setting<Double> CPU_HIT_WEIGHT = Setting.of(AT + "cpu_hit_weight",
            ValueType.real(0, 1).in("", "a CPU-tier block counts at most as a GPU block"), 0.0,
            "What a prefix block held only in the CPU tier counts for against a GPU block (only with"
                    + " engine.kv_cpu_blocks > 0; Dynamo's per-tier weights, llm-d's 0.8).");
    static final List<Setting<?>> PARAMS = List.of(OVERLAP_WEIGHT, CPU_HIT_WEIGHT);

    private final double overlapWeight;
    private final double cpuHitWeight;
    private final double[] credited;
    private final double[] active;
    private final ScoreSheet sheet;
    private final double[] scores;

    private KvRouter(double overlapWeight, double cpuHitWeight, int instances) {
        sheet = new ScoreSheet(instances);
        scores = sheet.scores;
        this.overlapWeight = overlapWeight;
        this.cpuHitWeight = cpuHitWeight;
        credited = sheet.component("overlap_blocks");
        active = sheet.component("active_blocks");
    }

    static RoutingPolicy create(PolicySpec spec, PolicyContext ctx) {
        double cpuHitWeight = spec.get(CPU_HIT_WEIGHT);
        if (spec.has(CPU_HIT_WEIGHT) && !ctx.cpuKvTier()) {
            // credited to no block, it would be accepted and change nothing
            throw new ConfigException(spec.path() + ".params.cpu_hit_weight", "only applies with engine.kv_cpu_blocks > 0"
                    + " (it weighs prefix blocks held in the CPU tier, and there is none); set engine.kv_cpu_blocks or remove it");
        }
        return new KvRouter(spec.get(OVERLAP_WEIGHT), cpuHitWeight, ctx.instances());
    }

    @Override
    public int route(Request r, ClusterView v, long nowUs) {
        int[] overlap = v.prefixOverlapBlocks(r);
        int[] cpuOnly = cpuHitWeight > 0 ? v.cpuPrefixOverlapBlocks(r, overlap) : null;
        int promptBlocks = (r.inputTokens() + v.blockSizeTokens() - 1) / v.blockSizeTokens();
        int best = 0;
        double bestCost = Double.MAX_VALUE;
        for (int i = 0; i < v.instances(); i++) {
            credited[i] = cpuOnly == null ? overlap[i] : overlap[i] + cpuHitWeight * cpuOnly[i];
            active[i] = v.inFlightPromptBlocks(i);
            double cost = overlapWeight * (promptBlocks - credited[i]) + active[i] + promptBlocks;
            scores[i] = -cost;
            if (cost < bestCost) {
                bestCost = cost;
                best = i;
            }
        }
        return best;
    }

    @Override
    public double[] lastScores() {
        return scores;
    }

    @Override
    public Map<String, double[]> lastBreakdown() {
        return sheet.components();
    }

    /**
     * The prefix index, and the CPU tiers' when CPU blocks are credited: active blocks are the
     * router's own bookkeeping, no signal.
     */
    @Override
    public Set<Signal> signalsRead() {
        return cpuHitWeight > 0 ? Set.of(Signal.PREFIX_CACHE, Signal.CPU_PREFIX_CACHE) : Set.of(Signal.PREFIX_CACHE);
    }
}
