package io.servesim.io;

import io.servesim.metrics.RequestRecord;

/**
 * Converts a kernel {@link RequestRecord} into an Avro row of {@code schemas/request.avsc}. The
 * target schema may carry extra leading columns (a sweep's cell id and axis labels); only the
 * request fields are filled here, by name. What the record marks -1 (an event that did not happen, an id that does not
 * apply) and the mean inter-token latency of a request without one are written as null, which DuckDB's and pandas'
 * aggregates skip.
 */
public final class RequestRows {
    private RequestRows() {
    }

    /** Sets every field of {@code schemas/request.avsc} on {@code row}, in the schema's order. */
    public static void fill(RowFields row, RequestRecord r) {
        row.put("request_id", r.requestId());
        putOrNull(row, "instance_id", r.instanceId());
        row.put("client_id", r.clientId());
        row.put("tenant_id", r.tenantId());
        row.put("slo_class", r.sloClass());
        putOrNull(row, "session_id", r.sessionId());
        row.put("turn_index", r.turnIndex());
        row.put("priority", r.priority());
        row.put("streaming", r.streaming());
        row.put("input_tokens", r.inputTokens());
        row.put("multimodal_tokens", r.mediaTokens());
        row.put("output_tokens", r.outputTokens());
        row.put("requested_output_tokens", r.requestedOutputTokens());
        row.put("prefix_hit_tokens", r.prefixHitTokens());
        row.put("gpu_hit_tokens", r.gpuHitTokens());
        row.put("cpu_hit_tokens", r.cpuHitTokens());
        row.put("preemptions", r.preemptions());
        row.put("send_us", r.sendUs());
        row.put("arrival_us", r.arrivalUs());
        putOrNull(row, "enqueue_us", r.enqueueUs());
        putOrNull(row, "first_scheduled_us", r.firstScheduledUs());
        putOrNull(row, "first_token_us", r.firstTokenUs());
        putOrNull(row, "completion_us", r.completionUs());
        putOrNull(row, "ttft_us", r.ttftUs());
        putOrNull(row, "e2e_us", r.e2eUs());
        putOrNull(row, "client_ttft_us", r.clientTtftUs());
        putOrNull(row, "client_e2e_us", r.clientE2eUs());
        if (r.e2eUs() >= 0 && r.outputTokens() > 1) {
            row.put("mean_itl_us", r.meanItlUs());
        } else {
            row.putNull("mean_itl_us");
        }
        row.put("reasoning_tokens", r.reasoningTokens());
        putOrNull(row, "first_answer_token_us", r.firstAnswerTokenUs());
        putOrNull(row, "ttfat_us", r.ttfatUs());
        putOrNull(row, "client_ttfat_us", r.clientTtfatUs());
        putOrNull(row, "scheduling_delay_us", r.schedulingDelayUs());
        putOrNull(row, "queueing_delay_us", r.queueingDelayUs());
        row.put("status", r.status());
        row.put("drop_reason", r.dropReason());
        row.put("length_capped", r.lengthCapped());
        row.put("step_id", r.stepId());
        putOrNull(row, "loop_iteration", r.loopIteration());
        putOrNull(row, "fan_out_index", r.fanOutIndex());
        var h = r.handoff();
        putOrNull(row, "prefill_instance", h.prefillInstance());
        putOrNull(row, "decode_instance", h.decodeInstance());
        putOrNull(row, "transfer_start_us", h.transferStartUs());
        putOrNull(row, "transfer_end_us", h.transferEndUs());
        putOrNull(row, "transfer_bandwidth_wait_us", h.bandwidthWaitUs());
        putOrNull(row, "decode_alloc_wait_us", h.decodeAllocWaitUs());
    }

    /** Sets {@code field} to {@code v}, or to null for the record's -1 (did not happen, does not apply). */
    private static void putOrNull(RowFields row, String field, long v) {
        if (v == -1) {
            row.putNull(field);
        } else {
            row.put(field, v);
        }
    }

    /** Sets {@code field} to {@code v}, or to null for the record's -1. */
    private static void putOrNull(RowFields row, String field, int v) {
        if (v == -1) {
            row.putNull(field);
        } else {
            row.put(field, v);
        }
    }
}
