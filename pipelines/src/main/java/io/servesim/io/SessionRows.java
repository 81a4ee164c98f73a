package io.servesim.io;

import io.servesim.metrics.SessionRecord;
import org.apache.avro.generic.GenericRecord;

/**
 * Converts a kernel {@link SessionRecord} into an Avro row of {@code schemas/session.avsc}. The
 * target schema may carry extra leading columns (a sweep's cell id and axis labels); only the
 * session fields are filled here, by name.
 */
public final class SessionRows {
    private SessionRows() {
    }

    /** Sets every field of {@code schemas/session.avsc} on {@code row}. */
    public static void fill(GenericRecord row, SessionRecord s) {
        row.put("session_id", s.sessionId());
        row.put("client_id", s.clientId());
        row.put("workflow", s.workflow());
        row.put("status", s.status());
        row.put("reason", s.reason());
        row.put("arrival_us", s.arrivalUs());
        row.put("end_us", s.endUs());
        row.put("e2e_us", s.e2eUs() == -1 ? null : s.e2eUs()); // null unless completed
        row.put("steps", s.steps());
        row.put("llm_calls", s.llmCalls());
        row.put("tool_calls", s.toolCalls());
        row.put("tool_wait_us", s.toolWaitUs());
        row.put("loop_iterations", s.loopIterations());
        row.put("planned_loop_iterations", s.plannedLoopIterations());
        row.put("fan_out_completed", s.fanOutCompleted());
        row.put("fan_out_planned", s.fanOutPlanned());
        row.put("critical_path_us", s.criticalPathUs());
        row.put("step_latency_sum_us", s.stepLatencySumUs());
        row.put("gpu_queued_us", s.gpuQueuedUs());
        row.put("critical_path_queued_us", s.criticalPathQueuedUs());
        row.put("queued_fraction", s.queuedFraction());
        row.put("input_tokens", s.inputTokens());
        row.put("output_tokens", s.outputTokens());
        row.put("prefix_hit_tokens", s.prefixHitTokens());
    }
}
