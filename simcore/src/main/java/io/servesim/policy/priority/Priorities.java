package io.servesim.policy.priority;

import io.servesim.cluster.PriorityPolicy;
import io.servesim.policy.Registry;
import io.servesim.policy.code.CodePolicies;

/**
 * Priority templates (BLIS {@code sim/priority.go} plus tenant and deadline variants), one class
 * each, in the order help and error messages list them ({@link Registry} says how to add one).
 * Higher scores are served first by priority-aware schedulers. Every template's order is
 * time-invariant, so a wait queue can key on {@link PriorityPolicy#rankKey}.
 */
public final class Priorities {
    public static final Registry<PriorityPolicy> REGISTRY = new Registry<PriorityPolicy>("priority")
            .register("constant", Constant::create, Constant.PARAMS)
            .register("slo-based", SloBased::create, SloBased.PARAMS.all())
            .register("tenant-priority", TenantPriority::create, TenantPriority.PARAMS.all())
            .register("deadline-aware", DeadlineAware::create, DeadlineAware.PARAMS)
            .register("inverted-slo", InvertedSlo::create, InvertedSlo.PARAMS.all())
            .register(CodePolicies.NAME, CodePolicies::priority, CodePolicies.PRIORITY.all());

    private Priorities() {
    }
}
