package io.servesim.metrics;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Agentic sessions of one client, aggregated from their {@link SessionRecord}s. Latency
 * distributions are in milliseconds; means are per session over all sessions of the client
 * (any status) unless named otherwise.
 *
 * @param sessions                 sessions that ended
 * @param completed                sessions that completed every terminal step
 * @param cutByHorizon             sessions cut by the horizon
 * @param cutByLimit               sessions cut by num_requests
 * @param dropped                  sessions ended by a dropped request
 * @param rejected                 sessions ended by a rejected request
 * @param e2eMs                    root arrival to terminal completion, completed sessions
 * @param criticalPathMs           critical-path latency, completed sessions
 * @param stepLatencySumMs         sum of step latencies, completed sessions (over criticalPathMs: the parallelism)
 * @param meanSteps                step instances completed per session
 * @param meanLlmCalls             LLM calls completed per session
 * @param meanToolCalls            tool calls completed per session
 * @param meanToolWaitMs           tool latency per session
 * @param meanLoopIterations       loop iterations completed per session
 * @param meanFanOutCompleted      fanned-out step instances completed per session
 * @param meanQueuedFraction       share of the critical path spent queued for the GPU, per session
 */
public record SessionSummary(long sessions, long completed, long cutByHorizon, long cutByLimit, long dropped,
                             long rejected, Distribution e2eMs, Distribution criticalPathMs,
                             Distribution stepLatencySumMs, double meanSteps, double meanLlmCalls, double meanToolCalls,
                             double meanToolWaitMs, double meanLoopIterations, double meanFanOutCompleted,
                             double meanQueuedFraction) {

    /** Stable key order for JSON output. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sessions", sessions);
        m.put("completed", completed);
        m.put("cut_by_horizon", cutByHorizon);
        m.put("cut_by_limit", cutByLimit);
        m.put("dropped", dropped);
        m.put("rejected", rejected);
        m.put("e2e_ms", e2eMs.toMap());
        m.put("critical_path_ms", criticalPathMs.toMap());
        m.put("step_latency_sum_ms", stepLatencySumMs.toMap());
        m.put("mean_steps", meanSteps);
        m.put("mean_llm_calls", meanLlmCalls);
        m.put("mean_tool_calls", meanToolCalls);
        m.put("mean_tool_wait_ms", meanToolWaitMs);
        m.put("mean_loop_iterations", meanLoopIterations);
        m.put("mean_fan_out_completed", meanFanOutCompleted);
        m.put("mean_queued_fraction", meanQueuedFraction);
        return m;
    }
}
