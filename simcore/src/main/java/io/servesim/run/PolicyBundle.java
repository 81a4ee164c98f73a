package io.servesim.run;

import io.servesim.policy.PolicySpec;

/**
 * The control policies of a run, as one unit ({@code policies:} in a run config, or a
 * {@code --policy-config} file): admission, priority, routing and the instances' scheduler.
 */
public record PolicyBundle(PolicySpec admission, PolicySpec priority, PolicySpec routing, PolicySpec scheduler) {
    public static final PolicyBundle DEFAULT = new PolicyBundle(PolicySpec.of("always-admit", "policies.admission"),
            PolicySpec.of("constant", "policies.priority"), PolicySpec.of("round-robin", "policies.routing"),
            PolicySpec.of("fcfs", "policies.scheduler"));

    public PolicyBundle withScheduler(String name) {
        return new PolicyBundle(admission, priority, routing, PolicySpec.of(name, "policies.scheduler"));
    }

    public PolicyBundle withPriority(String name) {
        return new PolicyBundle(admission, PolicySpec.of(name, "policies.priority"), routing, scheduler);
    }

    public PolicyBundle withRouting(String name) {
        return new PolicyBundle(admission, priority, PolicySpec.of(name, "policies.routing"), scheduler);
    }

    public PolicyBundle withAdmission(PolicySpec spec) {
        return new PolicyBundle(spec, priority, routing, scheduler);
    }
}
