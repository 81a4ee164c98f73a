package io.servesim.policy.api;

/**
 * An autoscaling policy as code ({@code policies.autoscale: {name: code, params: {source: FILE.java}}}, with
 * {@code autoscaling.enabled: true}): at each periodic check, how many replicas the deployment should have (Kubernetes
 * HPA's recommendation step). The autoscaler clamps the answer to {@code autoscaling.min .. max} and actuates it.
 */
public interface AutoscalePolicy {
    /** The desired number of ready + starting replicas. */
    int desiredReplicas(ScaleView signals);

    /**
     * Why the last {@link #desiredReplicas} call, with the same {@code signals}, answered {@code desired}: the rule
     * and the numbers it compared, for decision traces (asked only when a run is traced). Empty by default, and the
     * trace then says only what was asked.
     */
    default String explain(ScaleView signals, int desired) {
        return "";
    }
}
