package io.servesim.decisions;

import java.util.Map;

/**
 * One routing decision, for decision traces (opt-in): what the router saw and why it chose.
 *
 * @param requestId        request routed
 * @param timeUs           decision time
 * @param policy           routing template name
 * @param chosenInstance   instance chosen
 * @param loads            per-instance load the router saw (waiting + running + in transit)
 * @param kvUtilizations   per-instance KV utilization the router saw
 * @param prefixOverlapBlocks per-instance cached leading prompt blocks (0 when the policy does not read the prefix index)
 * @param scores           per-component score per instance (e.g. weighted-scoring's cache_affinity, load, ...); empty when the policy has none
 */
public record DecisionRecord(long requestId, long timeUs, String policy, int chosenInstance, double[] loads,
                             double[] kvUtilizations, int[] prefixOverlapBlocks, Map<String, double[]> scores) {
}
