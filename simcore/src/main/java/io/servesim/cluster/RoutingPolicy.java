package io.servesim.cluster;

import io.servesim.engine.Request;

/**
 * Picks the instance for an admitted request at decision time, from the control plane's view of
 * the instances (BLIS {@code sim/routing.go}; llm-d / Dynamo routers). Ties go to the lowest
 * instance id. Instantiated once per run; state changes only from inputs and the clock.
 */
public interface RoutingPolicy {
    int route(Request r, ClusterView view, long nowUs);

    /**
     * Whether {@link #route} reads {@link ClusterView#prefixOverlapBlocks}: only then does the cluster
     * maintain its prefix index (the run asks the built policy, never its name).
     */
    default boolean readsPrefixIndex() {
        return false;
    }

    /**
     * Per-instance score components of the last decision (component name -> score per instance),
     * for decision traces; empty for policies without a breakdown. The arrays are reused.
     */
    default java.util.Map<String, double[]> lastBreakdown() {
        return java.util.Map.of();
    }

    /**
     * Total score per instance of the last decision (higher is better), for counterfactuals and
     * score regret; empty for policies that do not score instances. The array is reused.
     */
    default double[] lastScores() {
        return NO_SCORES;
    }

    /** The {@link #lastScores} of a policy without scores. */
    double[] NO_SCORES = new double[0];
}
