package io.servesim.workload;

/**
 * Parameters of the simple generator ({@code workload:} without {@code trace:}).
 *
 * @param poisson       Poisson arrivals (else constant gaps)
 * @param rateRps       mean arrival rate, requests per second
 * @param numRequests   requests to generate; 0 = until the horizon
 * @param input         unique prompt length distribution (tokens)
 * @param output        output length distribution (tokens)
 * @param prefixTokens  shared prefix tokens before every prompt (0 = none)
 * @param prefixGroup   name of the shared prefix's content
 */
public record SyntheticSpec(boolean poisson, double rateRps, long numRequests, LengthSpec input, LengthSpec output,
                            int prefixTokens, String prefixGroup) implements WorkloadSpec {
    @Override
    public RequestSource open(long seed, long horizonUs) {
        return new SyntheticSource(this, seed, horizonUs);
    }
}
