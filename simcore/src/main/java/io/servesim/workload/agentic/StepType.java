package io.servesim.workload.agentic;

import java.util.List;

/** What a workflow step does: an LLM call served by the cluster, or an external tool call that only takes time. */
public enum StepType {
    /** An inference request (prompt and output lengths from the step's distributions). */
    LLM_CALL("llm_call"),
    /** An external call (web search, code execution, ...): a sampled latency, no GPU work. */
    TOOL_CALL("tool_call");

    /** The YAML names, in declaration order. */
    public static final List<String> NAMES = List.of("llm_call", "tool_call");

    private final String yamlName;

    StepType(String yamlName) {
        this.yamlName = yamlName;
    }

    static StepType of(String yamlName) {
        return yamlName.equals(LLM_CALL.yamlName) ? LLM_CALL : TOOL_CALL;
    }
}
