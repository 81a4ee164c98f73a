package io.servesim.workload.agentic;

import io.servesim.workload.dist.DistributionSpec;
import java.util.List;

/**
 * The repeating part of a workflow ({@code agentic.loop}). Each session runs the body
 * {@code iterations} times (sampled once per session, capped at {@code max_iterations}; every
 * session runs {@code max_iterations} when no distribution is given). An iteration starts when
 * the previous one's last body step completes; steps outside the body that depend on it run once
 * the loop has exited.
 *
 * @param over          the body's step ids, in iteration order (a dependency from a later-listed
 *                      body step to an earlier-listed one is a loop-back edge, implied anyway)
 * @param maxIterations upper bound on iterations, >= 1
 * @param iterations    iterations per session, or null for always {@code maxIterations}
 */
public record LoopSpec(List<String> over, int maxIterations, DistributionSpec iterations) {
    public LoopSpec {
        over = List.copyOf(over);
    }
}
