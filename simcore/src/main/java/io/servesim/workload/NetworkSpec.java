package io.servesim.workload;

/**
 * Client-to-server network ({@code network: {bytes_per_token, bandwidth_mbps, rtt_us}}): a request
 * sent at time t arrives at the engine at t + rtt_us + ceil(prompt bits / bandwidth), where prompt
 * bits = input tokens x bytes_per_token x 8 and 1 Mbit/s moves one bit per microsecond. A bandwidth
 * of 0 means unlimited (only the RTT applies). After BLIS {@code NetworkSpec} (RTT, bandwidth).
 *
 * @param bytesPerToken  bytes of request body per prompt token
 * @param bandwidthMbps  uplink bandwidth in megabits per second; 0 = unlimited
 * @param rttUs          round-trip time in microseconds
 */
public record NetworkSpec(double bytesPerToken, double bandwidthMbps, long rttUs) {
    /** Delay from send to arrival at the engine for a prompt of {@code inputTokens}. */
    public long delayUs(int inputTokens) {
        if (bandwidthMbps <= 0) {
            return rttUs;
        }
        double bits = inputTokens * bytesPerToken * 8;
        return rttUs + (long) Math.ceil(bits / bandwidthMbps);
    }
}
