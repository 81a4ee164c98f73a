package io.servesim.workload.agentic;

import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import io.servesim.workload.ClientSettings;
import java.util.List;

/**
 * An agentic client's settings ({@code workload.clients[].agentic}, after the BLIS "Agentic Workload Generation"
 * specification, inference-sim/inference-sim, proposed 2026-02-26): the workflow, each step's id, type, fan-out,
 * context growth and tool, and the loop's bound ({@link AgenticBinder}). Steps' lengths, tools' latencies and outputs
 * and the loop's iterations are distributions ({@code dist.DistributionSettings}); {@code depends_on} and
 * {@code loop.over} list step ids.
 */
public final class AgenticSettings {
    public static final Setting<String> WORKFLOW = Setting.derived("workload.clients[].agentic.workflow", ValueType.text(),
            "required", "A built-in workflow (" + String.join(", ", Workflows.names()) + ") when steps are omitted;"
                    + " else the workflow's label.");
    public static final Setting<String> STEP_ID = Setting.derived("workload.clients[].agentic.steps[].id", ValueType.text(),
            "required", "The step's id, unique within the workflow (depends_on and loop.over name it).");
    public static final Setting<String> STEP_TYPE = Setting.derived("workload.clients[].agentic.steps[].type",
            ValueType.choice(StepType.NAMES), "required",
            "llm_call (a request, with its own input_distribution and output_distribution) or tool_call (its tool's"
                    + " latency, whose output tokens join the next llm_call's prompt).");
    public static final Setting<List<String>> DEPENDS_ON = Setting.derived(
            "workload.clients[].agentic.steps[].depends_on", ValueType.list(ValueType.text()),
            "none: the step starts its pass of the workflow", "The ids of the steps that must complete before this one"
                    + " starts.");
    public static final Setting<Long> FAN_OUT = Setting.derived("workload.clients[].agentic.steps[].fan_out",
            ValueType.integer(2, WorkflowRules.MAX_SLOTS).in("instances", "omit fan_out for one instance; a pass of the"
                    + " workflow holds at most " + WorkflowRules.MAX_SLOTS + " step instances"),
            "one instance", "Parallel instances of the step. Under a single parent that has several instances it fans out per parent"
                    + " instance (a tree: N x k instances, each starting when its own parent instance completes); otherwise"
                    + " each of the N starts once every parent instance has completed. A child without fan_out waits for"
                    + " every instance (fan-in).");
    public static final Setting<String> STEP_CONTEXT_GROWTH = Setting.of(
            "workload.clients[].agentic.steps[].context_growth", ValueType.choice(ClientSettings.CONTEXT_GROWTH), "none",
            "accumulate (steps in loop.over only): the prompt starts with the session's context so far, which the engine"
                    + " serves from the prefix cache.");
    public static final Setting<String> TOOL = Setting.derived("workload.clients[].agentic.steps[].tool", ValueType.text(),
            "required on a tool_call step (only there)", "The tool the step runs: a key of agentic.tools.");
    public static final Setting<List<String>> LOOP_OVER = Setting.derived("workload.clients[].agentic.loop.over",
            ValueType.list(ValueType.text()), "required in a loop block", "The ids of the steps that repeat, in"
                    + " iteration order: an iteration starts when the previous one's last step completes, the results of its"
                    + " last tool calls (tool steps no step of the loop depends on) joining the prompts of the next"
                    + " iteration's first steps, and steps outside the loop that depend on it run once it has exited.");
    public static final Setting<Long> LOOP_MAX_ITERATIONS = Setting.derived(
            "workload.clients[].agentic.loop.max_iterations",
            ValueType.integer(1, 10_000).in("iterations", "agent frameworks stop a loop far sooner: LangChain's"
                    + " AgentExecutor at 15 iterations by default"),
            "required in a loop block", "Iterations of the loop at most; every session runs this many without iterations.");

    /** Every agentic setting, in documentation order. */
    public static final List<Setting<?>> ALL = List.of(WORKFLOW, STEP_ID, STEP_TYPE, DEPENDS_ON, FAN_OUT,
            STEP_CONTEXT_GROWTH, TOOL, LOOP_OVER, LOOP_MAX_ITERATIONS);

    private AgenticSettings() {
    }
}
