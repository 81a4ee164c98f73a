package io.servesim.workload.agentic;

import io.servesim.workload.dist.DistributionSpec;
import java.util.List;

/**
 * One step of an agentic workflow ({@code agentic.steps[i]}).
 *
 * @param id         unique within the workflow
 * @param type       llm_call or tool_call
 * @param tool       the tool a tool_call step runs (a key of {@code agentic.tools}); null for llm_call
 * @param dependsOn  parent step ids; the step starts when all their instances have completed
 * @param fanOut     parallel instances of this step (1 when {@code fan_out} is not given, else >= 2)
 * @param accumulate {@code context_growth: accumulate}: the prompt starts with the session's accumulated context
 * @param input      prompt tokens of an llm_call (new content: tool outputs of its parents come on top); null for tools
 * @param output     output tokens of an llm_call; null for tools
 */
public record StepSpec(String id, StepType type, String tool, List<String> dependsOn, int fanOut, boolean accumulate,
                       DistributionSpec input, DistributionSpec output) {
    public StepSpec {
        dependsOn = List.copyOf(dependsOn);
    }
}
