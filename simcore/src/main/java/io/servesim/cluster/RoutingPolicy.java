package io.servesim.cluster;

import io.servesim.engine.Request;
import java.util.Set;

/**
 * Picks the instance for an admitted request at decision time, from the control plane's view of
 * the instances (BLIS {@code sim/routing.go}; llm-d / Dynamo routers). Ties go to the lowest
 * instance id. Instantiated once per run; state changes only from inputs and the clock.
 */
public interface RoutingPolicy {
    int route(Request r, ClusterView view, long nowUs);

    /**
     * The {@link Signal}s {@link #route} reads through the {@link ClusterView} (router-local
     * bookkeeping such as {@link ClusterView#inFlightPromptBlocks} and {@link ClusterView#inTransit}
     * is no signal). A decision pays the pull latency of the on-demand ones only, and the cluster
     * keeps its prefix indexes only for {@link Signal#PREFIX_CACHE} (GPU caches,
     * {@link ClusterView#prefixOverlapBlocks}) and {@link Signal#CPU_PREFIX_CACHE} (CPU tiers,
     * {@link ClusterView#cpuPrefixOverlapBlocks}) (the run asks the built policy, never its name).
     */
    Set<Signal> signalsRead();

    /**
     * Per-position score components of the last decision (component name -> value per position,
     * the first {@link ClusterView#instances()} entries), for decision traces; empty for policies
     * that do not score. The arrays are reused.
     */
    default java.util.Map<String, double[]> lastBreakdown() {
        return java.util.Map.of();
    }

    /**
     * Total score per position of the last decision (higher is better; the first
     * {@link ClusterView#instances()} entries), for counterfactuals and score regret: the quantity
     * the policy picks the best of. Empty for policies that do not score instances; those say why in
     * {@link #unscoredBecause()}. The array is reused.
     */
    default double[] lastScores() {
        return NO_SCORES;
    }

    /**
     * For a policy without scores ({@link #lastScores()} empty): why, as decision traces say it
     * instead of inventing scores, e.g. "takes instances in turn".
     */
    default String unscoredBecause() {
        return "it does not score instances";
    }

    /** The {@link #lastScores} of a policy without scores. */
    double[] NO_SCORES = new double[0];
}
