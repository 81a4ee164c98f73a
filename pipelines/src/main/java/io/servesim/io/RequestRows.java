package io.servesim.io;

import io.servesim.metrics.RequestRecord;

/**
 * Converts a kernel {@link RequestRecord} into an Avro row of {@code schemas/request.avsc}. The
 * target schema may carry extra leading columns (a sweep's cell id and axis labels); only the
 * request fields are filled here, by name.
 */
public final class RequestRows {
    private RequestRows() {
    }

    /** Sets every field of {@code schemas/request.avsc} on {@code row}, in the schema's order. */
    public static void fill(RowFields row, RequestRecord r) {
        row.put("request_id", r.requestId());
        row.put("instance_id", r.instanceId());
        row.put("client_id", r.clientId());
        row.put("tenant_id", r.tenantId());
        row.put("slo_class", r.sloClass());
        row.put("session_id", r.sessionId());
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
        row.put("enqueue_us", r.enqueueUs());
        row.put("first_scheduled_us", r.firstScheduledUs());
        row.put("first_token_us", r.firstTokenUs());
        row.put("completion_us", r.completionUs());
        row.put("ttft_us", r.ttftUs());
        row.put("e2e_us", r.e2eUs());
        row.put("client_ttft_us", r.clientTtftUs());
        row.put("client_e2e_us", r.clientE2eUs());
        row.put("mean_itl_us", r.meanItlUs());
        row.put("reasoning_tokens", r.reasoningTokens());
        row.put("first_answer_token_us", r.firstAnswerTokenUs());
        row.put("ttfat_us", r.ttfatUs());
        row.put("client_ttfat_us", r.clientTtfatUs());
        row.put("scheduling_delay_us", r.schedulingDelayUs());
        row.put("queueing_delay_us", r.queueingDelayUs());
        row.put("status", r.status());
        row.put("drop_reason", r.dropReason());
        row.put("length_capped", r.lengthCapped());
        row.put("step_id", r.stepId());
        row.put("loop_iteration", r.loopIteration());
        row.put("fan_out_index", r.fanOutIndex());
        var h = r.handoff();
        row.put("prefill_instance", h.prefillInstance());
        row.put("decode_instance", h.decodeInstance());
        row.put("transfer_start_us", h.transferStartUs());
        row.put("transfer_end_us", h.transferEndUs());
        row.put("transfer_bandwidth_wait_us", h.bandwidthWaitUs());
        row.put("decode_alloc_wait_us", h.decodeAllocWaitUs());
    }
}
