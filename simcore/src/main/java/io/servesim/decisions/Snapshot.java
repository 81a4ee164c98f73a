package io.servesim.decisions;

import java.util.Map;

/**
 * What a policy saw at a decision ({@link TraceLevel#DETAILED} only). Routing: arrays indexed by
 * position among the instances the router chose from, whose ids are {@code instances} (every
 * instance of a fixed fleet, position = id; the ready replicas under autoscaling); copies, never
 * the policy's reused buffers. Scale: the aggregates the autoscale policy saw, in {@code signals},
 * the arrays empty.
 *
 * @param instances           instance id of each position
 * @param loads               per-position load (waiting + running + in transit), requests
 * @param kvUtilizations      per-position KV utilization, fraction in [0, 1]
 * @param prefixOverlapBlocks per-position cached leading prompt blocks; null when no policy reads the prefix index, so
 *                            nothing measured them
 * @param scores              score component -> per-position value; empty when the policy has none
 * @param signals             scale: signal name -> value (the autoscaler's {@code ScaleSignals}); empty for routing
 */
public record Snapshot(int[] instances, double[] loads, double[] kvUtilizations, int[] prefixOverlapBlocks,
                       Map<String, double[]> scores, Map<String, Double> signals) {
    private static final int[] NO_INTS = new int[0];
    private static final double[] NO_DOUBLES = new double[0];

    /** What an autoscale policy saw: its aggregate signals only. */
    public static Snapshot ofSignals(Map<String, Double> signals) {
        return new Snapshot(NO_INTS, NO_DOUBLES, NO_DOUBLES, NO_INTS, Map.of(), signals);
    }
}
