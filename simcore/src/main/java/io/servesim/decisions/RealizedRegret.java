package io.servesim.decisions;

/**
 * The outcome of sending one traced request to an alternative instance instead of the chosen one,
 * measured by re-simulating the run with only that decision changed (the kernel is deterministic,
 * so the replay up to the decision is the original run). Positive deltas mean the alternative
 * would have been better.
 *
 * @param requestId        the request re-routed
 * @param timeUs           decision time, microseconds of simulated time
 * @param chosen           instance the policy chose
 * @param alternative      instance it was sent to in the re-simulation
 * @param scoreDelta       alternative's score - chosen's score (the policy's own view), dimensionless
 * @param requestTtftGainMs  chosen TTFT - alternative TTFT of the request, ms (NaN if it completed in neither)
 * @param clusterTtftGainMs  sum of TTFT over the next M completions after the decision, chosen - alternative, ms
 */
public record RealizedRegret(long requestId, long timeUs, int chosen, int alternative, double scoreDelta,
                             double requestTtftGainMs, double clusterTtftGainMs) {
    /**
     * Whether the policy's scores and the re-simulation disagree: the scores did not prefer the
     * alternative (ranked it below or level with the chosen instance) while it would have served the
     * request faster, or preferred it while it would have been slower.
     */
    public boolean disagrees() {
        return scoreDelta <= 0 && requestTtftGainMs > 0 || scoreDelta > 0 && requestTtftGainMs < 0;
    }
}
