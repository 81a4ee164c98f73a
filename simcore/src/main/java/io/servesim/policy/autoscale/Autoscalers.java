package io.servesim.policy.autoscale;

import io.servesim.cluster.AutoScalePolicy;
import io.servesim.policy.Registry;
import io.servesim.policy.code.CodePolicies;

/**
 * The autoscaling templates, one class each, in the order help and error messages list them
 * ({@link Registry} says how to add one).
 */
public final class Autoscalers {
    public static final Registry<AutoScalePolicy> REGISTRY = new Registry<AutoScalePolicy>("autoscale")
            .register("threshold", Threshold::create, Threshold.PARAMS)
            .register("target-utilization", TargetUtilization::create, TargetUtilization.PARAMS)
            .register("queue-depth", QueueDepth::create, QueueDepth.PARAMS)
            .register("slo-attainment", SloAttainment::create, SloAttainment.PARAMS)
            .register("oscillator", Oscillator::create)
            .register(CodePolicies.NAME, CodePolicies::autoscale, CodePolicies.AUTOSCALE.all());

    private Autoscalers() {
    }
}
