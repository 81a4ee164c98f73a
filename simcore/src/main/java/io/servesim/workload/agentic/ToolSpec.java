package io.servesim.workload.agentic;

import io.servesim.workload.dist.DistributionSpec;

/**
 * An external tool ({@code agentic.tools.<name>}): how long a call takes and how many tokens its
 * result adds to the prompt of the next llm_call step downstream.
 *
 * @param latencyUs    call latency, microseconds (>= 0)
 * @param outputTokens tokens of the result
 */
public record ToolSpec(DistributionSpec latencyUs, DistributionSpec outputTokens) {
}
