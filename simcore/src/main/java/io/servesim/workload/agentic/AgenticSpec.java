package io.servesim.workload.agentic;

import java.util.List;
import java.util.Map;

/**
 * An agentic workflow client ({@code clients[i].agentic}): every arrival of the client starts a
 * session that runs the workflow's DAG of LLM and tool calls. Only the root steps arrive with the
 * session; every other step is injected at run time when its parents complete
 * ({@link SessionRegistry}). After the BLIS "Agentic Workload Generation" specification
 * (inference-sim/inference-sim, proposed 2026-02-26: {@code AgenticSpec} with {@code depends_on},
 * {@code fan_out} and {@code loop}).
 *
 * @param workflow workflow name (a built-in {@link Workflows} name or a free label)
 * @param steps    the steps, in declaration order
 * @param loop     the repeating body, or null
 * @param tools    tools by name
 */
public record AgenticSpec(String workflow, List<StepSpec> steps, LoopSpec loop, Map<String, ToolSpec> tools) {
    public AgenticSpec {
        steps = List.copyOf(steps);
        tools = Map.copyOf(tools);
    }

    /** The workflow compiled into its DAG and instance layout (a new one per call: keep it). */
    public WorkflowGraph graph() {
        return new WorkflowGraph(steps, loop, tools);
    }
}
