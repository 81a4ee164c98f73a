package io.servesim.fidelity;

/**
 * One request of a replay: what the real engine measured next to what the simulator produced.
 * Latencies in milliseconds (definitions in {@link MeasuredRequest}; the simulator's TTFT and E2E
 * count from the same point as the measured ones: the request's arrival or, when the measurement counts from vLLM's
 * {@code queued_ts}, its simulated enqueue); NaN where a value does not exist (TPOT of a one-token output,
 * or any simulated latency of a request the simulator did not complete).
 *
 * @param index             0-based position in the workload and in requests.jsonl
 * @param requestId         {@code request_id} of the real run
 * @param inputTokens       prompt tokens
 * @param outputTokens      output tokens
 * @param arrivalUs         arrival in the simulation (workload arrival_time_ns, from the first request)
 * @param simStatus         completed, dropped, rejected or unfinished
 * @param prefixHitTokens   prompt tokens the simulator served from its prefix cache
 * @param preemptions       times the simulator preempted it
 * @param realTtftMs        measured time to first token
 * @param simTtftMs         simulated time to first token
 * @param realTpotMs        measured time per output token
 * @param simTpotMs         simulated time per output token
 * @param realE2eMs         measured end-to-end latency
 * @param simE2eMs          simulated end-to-end latency
 * @param realQueueingMs    measured queue time, scheduled_ts - queued_ts
 * @param simQueueingMs     simulated queue time as vLLM records it (enqueue to the scheduler's first decision)
 */
public record ReplayRow(int index, String requestId, int inputTokens, int outputTokens, long arrivalUs, String simStatus,
                        int prefixHitTokens, int preemptions, double realTtftMs, double simTtftMs, double realTpotMs,
                        double simTpotMs, double realE2eMs, double simE2eMs, double realQueueingMs, double simQueueingMs) {
}
