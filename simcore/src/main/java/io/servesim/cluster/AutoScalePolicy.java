package io.servesim.cluster;

/**
 * Decides, at each periodic scale check, how many replicas the deployment should have
 * ({@code AutoScalePolicy} of BLIS macro plan, G.1, D.6 and D.7: inference-sim/inference-sim @ 7d4e8bac,
 * {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}; Kubernetes HPA's recommendation step).
 * It sees only {@link ScaleSignals}; the {@link Autoscaler} clamps the answer to the bounds (counting
 * clamped decisions) and actuates it. Instantiated once per run; state changes only from its inputs.
 */
public interface AutoScalePolicy {
    /** The desired number of ready + starting replicas. */
    int desiredReplicas(ScaleSignals s);

    /**
     * Why the last {@link #desiredReplicas} call, with the same {@code s}, answered {@code desired}:
     * the rule that fired and the numbers it compared (e.g. {@code in_flight 14.2 > scale_up 12}),
     * for decision traces. Called only when a run is traced, right after that call.
     */
    String explain(ScaleSignals s, int desired);
}
