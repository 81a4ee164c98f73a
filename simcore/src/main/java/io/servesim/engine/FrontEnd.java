package io.servesim.engine;

import java.util.Locale;

/**
 * The serving front end in front of and behind each engine: what vLLM's OpenAI-compatible API server does per request
 * outside the engine core, independent of the latency model that prices the engine's steps.
 * <ul>
 *   <li>Ingress, from the request's arrival at the server to its entry into the engine core's wait queue: the HTTP
 *       request's handling (FastAPI, validation), tokenization of the prompt and the hand-off to the engine core
 *       process over ZMQ ({@code vllm/entrypoints/openai/serving_completion.py} tokenizes, then
 *       {@code AsyncLLM.add_request} sends an {@code EngineCoreRequest} to {@code EngineCoreProc}'s input socket,
 *       {@code vllm/v1/engine/core_client.py}): {@link #requestUs()} + {@link #tokenizeUsPerToken()} x prompt tokens.</li>
 *   <li>Egress, from a token's sampling to its chunk leaving the server: the engine core's outputs back over ZMQ,
 *       their detokenization in the API server ({@code vllm/v1/engine/output_processor.py}) and the streamed chunk
 *       ({@link #outputUsPerToken()}). The API server works beside the GPU, so this delays every token by the same
 *       amount: TTFT and E2E grow by it, inter-token latencies do not.</li>
 * </ul>
 * The client's network leg to and from the server is the workload client's ({@code network:}) or, for requests with
 * none (traces), {@link #networkRttUs()} split into two legs as {@code io.servesim.workload.NetworkSpec} splits one.
 * Server-side TTFT (a record's {@code ttft_us}) runs from arrival at the server to the first chunk leaving it, so
 * it holds ingress and egress; client-side TTFT ({@code client_ttft_us}) adds both network legs.
 *
 * @param enabled            whether the stage applies (off: requests reach the engine core at their arrival)
 * @param requestUs          fixed ingress cost per request, microseconds
 * @param tokenizeUsPerToken ingress cost per prompt token, microseconds
 * @param outputUsPerToken   egress delay of every output token, microseconds
 * @param networkRttUs       client round trip for requests whose client has no network of its own, microseconds
 */
public record FrontEnd(boolean enabled, long requestUs, double tokenizeUsPerToken, long outputUsPerToken, long networkRttUs) {
    /** No front end: the engine core receives each request at its arrival and tokens leave at sampling. */
    public static final FrontEnd OFF = new FrontEnd(false, 0, 0, 0, 0);

    public FrontEnd {
        if (requestUs < 0 || !(tokenizeUsPerToken >= 0) || Double.isInfinite(tokenizeUsPerToken) || outputUsPerToken < 0
                || networkRttUs < 0) {
            throw new IllegalArgumentException("negative front-end cost");
        }
    }

    /** Microseconds from a request's arrival at the server to its entry into the engine core (0 when off). */
    public long ingressUs(int inputTokens) {
        return enabled ? requestUs + Math.round(tokenizeUsPerToken * inputTokens) : 0;
    }

    /** Microseconds from a token's sampling to its chunk leaving the server (0 when off). */
    public long egressUs() {
        return enabled ? outputUsPerToken : 0;
    }

    /** The client round trip applied to requests without a network of their own (0 when off). */
    public long defaultNetworkRttUs() {
        return enabled ? networkRttUs : 0;
    }

    /** One line for summaries. */
    public String describe() {
        if (!enabled) {
            return "off";
        }
        return String.format(Locale.ROOT, "%.0f us + %.2f us per prompt token before the engine, %d us per output token after it;"
                + " client round trip %d us (requests without a client network)", (double) requestUs, tokenizeUsPerToken,
                outputUsPerToken, networkRttUs);
    }
}
