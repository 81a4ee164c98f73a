package io.servesim.fidelity;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigException;

/**
 * One request of a real vLLM run as measured ({@code requests.jsonl}: vLLM's per-request
 * {@code RequestStateStats} timestamps in seconds), reduced to the latencies the report compares.
 *
 * <p>Definitions follow casys-kaist/LLMServingSim {@code bench/core/validate.py}, so the figures
 * are comparable with its published errors:
 * <pre>
 * TTFT = first_token_ts - anchor     TPOT = (last_token_ts - first_token_ts) / (output_toks - 1)
 * E2E  = last_token_ts - anchor      queueing = scheduled_ts - queued_ts
 * </pre>
 * The anchor is {@code arrival_time} when it is on the same clock as the token timestamps, else
 * {@code queued_ts}: vLLM records {@code arrival_time} on the wall clock (epoch seconds) but the
 * engine-core timestamps on the monotonic clock, and timestamps more than 100,000 s apart (as
 * validate.py tests) are taken to be on different clocks.
 *
 * @param requestId     {@code request_id}
 * @param inputTokens   {@code input_toks}
 * @param outputTokens  {@code output_toks}
 * @param ttftMs        time to first token, ms
 * @param tpotMs        time per output token after the first, ms; NaN for a single-token output
 * @param e2eMs         end-to-end latency, ms
 * @param queueingMs    time waiting before first scheduled, ms
 * @param fromQueued    whether TTFT and E2E count from {@code queued_ts} (arrival_time was on another clock): the
 *                      engine core's taking the request in, after the API server and the wait for the step in flight
 */
public record MeasuredRequest(String requestId, int inputTokens, int outputTokens, double ttftMs, double tpotMs,
                              double e2eMs, double queueingMs, boolean fromQueued) {
    /** Timestamps further apart than this are on different clocks (validate.py {@code _same_time_domain}). */
    static final double SAME_CLOCK_S = 100_000;

    /** Parses one line of {@code requests.jsonl}; {@code where} is {@code file:line}. */
    static MeasuredRequest parse(JsonNode n, String where) {
        if (n == null || !n.isObject()) {
            throw new ConfigException(where, "expected a JSON object");
        }
        double queued = seconds(n, "queued_ts", where);
        double scheduled = seconds(n, "scheduled_ts", where);
        double first = seconds(n, "first_token_ts", where);
        double last = seconds(n, "last_token_ts", where);
        if (!(queued <= scheduled && scheduled <= first && first <= last)) {
            throw new ConfigException(where, "timestamps must satisfy queued_ts <= scheduled_ts <= first_token_ts <= last_token_ts");
        }
        JsonNode arrivalNode = n.get("arrival_time");
        double anchor = queued;
        if (arrivalNode != null && arrivalNode.isNumber()) {
            double arrival = arrivalNode.asDouble();
            if (Math.abs(arrival - first) < SAME_CLOCK_S && Math.abs(arrival - last) < SAME_CLOCK_S) {
                anchor = arrival;
            }
        }
        int output = count(n, "output_toks", where);
        JsonNode id = n.get("request_id");
        return new MeasuredRequest(id == null ? where : id.asText(), count(n, "input_toks", where), output,
                (first - anchor) * 1e3, output > 1 ? (last - first) / (output - 1) * 1e3 : Double.NaN,
                (last - anchor) * 1e3, (scheduled - queued) * 1e3, anchor == queued);
    }

    private static double seconds(JsonNode n, String field, String where) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            throw new ConfigException(where, "missing field " + field);
        }
        if (!v.isNumber() || !Double.isFinite(v.asDouble())) {
            throw new ConfigException(where, field + " must be a number of seconds, got " + v);
        }
        return v.asDouble();
    }

    private static int count(JsonNode n, String field, String where) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            throw new ConfigException(where, "missing field " + field);
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.asInt() < 0) {
            throw new ConfigException(where, field + " must be a non-negative integer, got " + v);
        }
        return v.asInt();
    }
}
