/**
 * Agentic workflow sessions (an optional {@code agentic} section on a workload client), after the
 * BLIS "Agentic Workload Generation" specification (inference-sim/inference-sim, proposed
 * 2026-02-26). Two layers of arrivals: the client's arrival process starts sessions (only their
 * root steps are generated up front); every other step is injected at run time by the
 * {@link io.servesim.workload.agentic.SessionRegistry} when its parents complete.
 *
 * <pre>
 * agentic:
 *   workflow: react-search            # a label; or a built-in name (react, tree-of-thought,
 *                                     # fork-join-research, tool-chain) with steps omitted
 *   loop: {over: [reason, act, observe], max_iterations: 5,
 *          iterations: {type: uniform, params: {min: 1, max: 5}}}   # optional; default: always max_iterations
 *   steps:
 *     - {id: reason, type: llm_call, input_distribution: {...}, output_distribution: {...}}
 *     - {id: act, type: tool_call, tool: web_search, depends_on: [reason]}
 *     - {id: observe, type: llm_call, depends_on: [act], context_growth: accumulate, ...}
 *     - {id: expand, type: llm_call, depends_on: [observe], fan_out: 4, ...}   # 4 parallel instances
 *   tools:
 *     web_search: {latency: {...microseconds...}, output_tokens: {...}}
 * </pre>
 *
 * Timing (deferred injection): an LLM child arrives when its last parent completes; a tool call
 * completes at its start plus its sampled latency, and its result tokens join the prompt of the
 * next llm_call downstream; a fan-in step (several parents, or one fanned-out parent) starts once,
 * at the latest parent completion; a loop iteration starts when the previous one's last body step
 * completes, and steps after the loop when it exits. {@code context_growth: accumulate} prefixes
 * the prompt with the session's context so far (the latest accumulating step's prompt and output),
 * which the engine serves from the prefix cache.
 *
 * <p>Records: each request carries session id, step id, loop iteration and fan-out index
 * ({@link io.servesim.engine.RequestTags}); each session ends in one
 * {@link io.servesim.metrics.SessionRecord} (completed, cut_by_horizon, cut_by_limit, dropped or
 * rejected). Binding and validation: {@link io.servesim.workload.agentic.AgenticBinder} and
 * {@link io.servesim.workload.agentic.WorkflowRules}; built-ins:
 * {@link io.servesim.workload.agentic.Workflows}.
 */
package io.servesim.workload.agentic;
