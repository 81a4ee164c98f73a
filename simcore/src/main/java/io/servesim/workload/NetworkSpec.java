package io.servesim.workload;

/**
 * Client-server network ({@code network: {bytes_per_token, bandwidth_mbps, rtt_us}}), after BLIS
 * {@code NetworkSpec} (RTT, bandwidth), applied to both legs of a request. The round trip splits
 * into a request leg of {@code floor(rtt_us / 2)} and a response leg of the rest (so the two add
 * up to {@code rtt_us} exactly), and each leg adds its payload's serialization time
 * {@code ceil(bits / bandwidth)} over a symmetric link, 1 Mbit/s moving one bit per microsecond:
 * <ul>
 *   <li>request: a request sent at t reaches the engine at t + {@link #requestDelayUs} of its
 *       prompt (input tokens x bytes_per_token x 8 bits);</li>
 *   <li>response: a chunk of n output tokens leaving the engine at t reaches the client at t +
 *       {@link #responseDelayUs}(n): one token per chunk when streaming, the whole output at once
 *       otherwise.</li>
 * </ul>
 * Client-side TTFT and E2E (as vLLM's {@code benchmarks/benchmark_serving.py} measures them, from
 * the client's send to the chunk's receipt) thus include both legs. A bandwidth of {@link #UNLIMITED} (0: the
 * config omits {@code bandwidth_mbps}) means unlimited (only the RTT applies).
 *
 * @param bytesPerToken  bytes of request or response body per token
 * @param bandwidthMbps  link bandwidth in megabits per second, each direction; {@link #UNLIMITED} = unlimited
 * @param rttUs          round-trip time in microseconds
 */
public record NetworkSpec(double bytesPerToken, double bandwidthMbps, long rttUs) {
    /** The {@code bandwidthMbps} of an unlimited link: only the RTT applies. */
    public static final double UNLIMITED = 0;

    /** Request leg: from send to arrival at the engine for a prompt of {@code inputTokens}. */
    public long requestDelayUs(int inputTokens) {
        return rttUs / 2 + serializationUs(inputTokens);
    }

    /** Response leg: from the engine to the client for a chunk of {@code outputTokens}. */
    public long responseDelayUs(int outputTokens) {
        return rttUs - rttUs / 2 + serializationUs(outputTokens);
    }

    /** The shortest request leg (no payload): the lower bound of every send's delay. */
    public long minRequestDelayUs() {
        return rttUs / 2;
    }

    private long serializationUs(int tokens) {
        if (bandwidthMbps <= UNLIMITED) {
            return 0;
        }
        return (long) Math.ceil(tokens * bytesPerToken * 8 / bandwidthMbps);
    }
}
