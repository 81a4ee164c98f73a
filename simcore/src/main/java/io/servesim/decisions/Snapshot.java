package io.servesim.decisions;

import java.util.Map;

/**
 * What a routing policy saw at a decision ({@link TraceLevel#DETAILED} only); arrays are indexed by
 * instance id and are copies, never the policy's reused buffers.
 *
 * @param loads               per-instance load (waiting + running + in transit), requests
 * @param kvUtilizations      per-instance KV utilization, fraction in [0, 1]
 * @param prefixOverlapBlocks per-instance cached leading prompt blocks (0 when the policy does not read the prefix index)
 * @param scores              score component -> per-instance value; empty when the policy has none
 */
public record Snapshot(double[] loads, double[] kvUtilizations, int[] prefixOverlapBlocks, Map<String, double[]> scores) {
}
