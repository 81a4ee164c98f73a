package io.servesim.cluster;

/**
 * Decides, at each periodic scale check, how many replicas the deployment should have (the plan's
 * {@code AutoScalePolicy}, D.6/D.7; Kubernetes HPA's recommendation step). It sees only
 * {@link ScaleSignals}; the {@link Autoscaler} clamps the answer to the bounds (counting clamped
 * decisions) and actuates it. Instantiated once per run; state changes only from its inputs.
 */
public interface AutoScalePolicy {
    /** The desired number of ready + starting replicas. */
    int desiredReplicas(ScaleSignals s);
}
