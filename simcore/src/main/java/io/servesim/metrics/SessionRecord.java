package io.servesim.metrics;

/**
 * One agentic session's outcome (BLIS agentic specification, "Agentic Metrics"), streamed to a
 * {@link SessionSink} when the session ends. Times are microseconds of simulated time. "Steps" are
 * step instances (a fan_out: 4 step in a 3-iteration loop is 12); only steps that completed by the
 * session's end count.
 *
 * @param sessionId              session id (shared with its requests' records)
 * @param clientId               workload client
 * @param workflow               workflow name
 * @param status                 completed, cut_by_horizon, cut_by_limit (num_requests reached), dropped or rejected
 * @param reason                 why the session did not complete (the step and the drop/rejection reason), or null
 * @param arrivalUs              root step arrival
 * @param endUs                  completion of the last terminal step; for other statuses when it ended
 *                               (the failing request left, its last request left, or the horizon)
 * @param e2eUs                  root arrival to terminal completion; -1 unless completed
 * @param steps                  step instances completed (LLM and tool)
 * @param llmCalls               LLM calls completed
 * @param toolCalls              tool calls completed
 * @param toolWaitUs             sum of the completed tool calls' latencies
 * @param loopIterations         loop iterations completed (0 without a loop)
 * @param plannedLoopIterations  iterations the session drew (capped at max_iterations; 0 without a loop)
 * @param fanOutCompleted        completed instances of fanned-out steps (candidates evaluated before the end)
 * @param fanOutPlanned          instances of fanned-out steps the full session would run
 * @param criticalPathUs         longest chain of step latencies (root arrival to the latest completed step, each
 *                               step counted from when it became ready)
 * @param stepLatencySumUs       sum of every completed step's latency (LLM: arrival to completion; tool: latency)
 * @param gpuQueuedUs            sum over LLM calls of arrival to first scheduling (waiting for the GPU)
 * @param criticalPathQueuedUs   GPU queueing on the critical path
 * @param queuedFraction         criticalPathQueuedUs / criticalPathUs: share of the session's critical path spent queued (0 when empty)
 * @param inputTokens            prompt tokens of the completed LLM calls
 * @param outputTokens           output tokens of the completed LLM calls
 * @param prefixHitTokens        prompt tokens of the completed LLM calls served from the prefix cache
 */
public record SessionRecord(long sessionId, String clientId, String workflow, String status, String reason,
                            long arrivalUs, long endUs, long e2eUs, int steps, int llmCalls, int toolCalls,
                            long toolWaitUs, int loopIterations, int plannedLoopIterations, int fanOutCompleted,
                            int fanOutPlanned, long criticalPathUs, long stepLatencySumUs, long gpuQueuedUs,
                            long criticalPathQueuedUs, double queuedFraction, long inputTokens, long outputTokens,
                            long prefixHitTokens) {
    public static final String COMPLETED = "completed";
    public static final String CUT_BY_HORIZON = "cut_by_horizon";
    public static final String CUT_BY_LIMIT = "cut_by_limit";
    public static final String DROPPED = "dropped";
    public static final String REJECTED = "rejected";
}
