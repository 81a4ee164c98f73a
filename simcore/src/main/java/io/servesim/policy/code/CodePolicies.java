package io.servesim.policy.code;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.cluster.AdmissionPolicy;
import io.servesim.cluster.AutoScalePolicy;
import io.servesim.cluster.PriorityPolicy;
import io.servesim.cluster.RoutingPolicy;
import io.servesim.engine.SchedulingPolicy;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import java.nio.file.Path;

/**
 * The {@code code} policy of every kind (the plan's F.5, extensibility beyond templates: BLIS macro plan,
 * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}): a policy
 * given as one Java source file implementing the kind's interface of {@code io.servesim.policy.api},
 * {@code policies.<kind>: {name: code, params: {source: FILE.java, call_budget: 1s}}}. The source is compiled at load
 * time with the JDK's compiler against that API alone, refused with its offending line if it reaches beyond it (I/O,
 * threads, reflection, the clock, unseeded randomness, static mutable state: {@code usercode.ReferenceCheck}),
 * loaded in a restricted class loader of its own per instance, and called directly through the interface, each call
 * within {@code call_budget} (a call over it fails the run, naming the file). Built per run like every policy, it is
 * as deterministic as the built-in ones: state lives in its fields and changes only from its inputs and the clock.
 */
public final class CodePolicies {
    /** The name every kind's registry gives the code policy. */
    public static final String NAME = "code";

    /** The routing code policy's params (the routing registry's line). */
    public static final CodeParams<io.servesim.policy.api.RoutingPolicy> ROUTING =
            CodeParams.of("routing", io.servesim.policy.api.RoutingPolicy.class);
    /** The admission code policy's params. */
    public static final CodeParams<io.servesim.policy.api.AdmissionPolicy> ADMISSION =
            CodeParams.of("admission", io.servesim.policy.api.AdmissionPolicy.class);
    /** The priority code policy's params. */
    public static final CodeParams<io.servesim.policy.api.PriorityPolicy> PRIORITY =
            CodeParams.of("priority", io.servesim.policy.api.PriorityPolicy.class);
    /** The scheduling code policy's params. */
    public static final CodeParams<io.servesim.policy.api.SchedulingPolicy> SCHEDULING =
            CodeParams.of("scheduler", io.servesim.policy.api.SchedulingPolicy.class);
    /** The autoscale code policy's params. */
    public static final CodeParams<io.servesim.policy.api.AutoscalePolicy> AUTOSCALE =
            CodeParams.of("autoscale", io.servesim.policy.api.AutoscalePolicy.class);

    private CodePolicies() {
    }

    public static RoutingPolicy routing(PolicySpec spec, PolicyContext ctx) {
        return new CodeRouting(Loaded.of(spec, ctx, ROUTING));
    }

    public static AdmissionPolicy admission(PolicySpec spec, PolicyContext ctx) {
        return new CodeAdmission(Loaded.of(spec, ctx, ADMISSION));
    }

    public static PriorityPolicy priority(PolicySpec spec, PolicyContext ctx) {
        return new CodePriority(Loaded.of(spec, ctx, PRIORITY));
    }

    public static SchedulingPolicy scheduling(PolicySpec spec, PolicyContext ctx) {
        return new CodeScheduling(Loaded.of(spec, ctx, SCHEDULING));
    }

    public static AutoScalePolicy autoscale(PolicySpec spec, PolicyContext ctx) {
        return new CodeAutoscale(Loaded.of(spec, ctx, AUTOSCALE));
    }

    /**
     * {@code policy}, a policy's node in a file of directory {@code from} (a policy bundle), with a code policy's
     * relative {@code source} written relative to {@code to} (absolute when {@code to} is null), so the source is found
     * wherever the node goes: into a run config ({@code --policy-config}), or a sweep cell bound against its base's
     * directory (relative, so the cell's id does not depend on where the checkout is).
     */
    public static JsonNode withSourceRebased(JsonNode policy, Path from, Path to) {
        return CodeParams.rebased(policy, from, to);
    }

    /**
     * {@code spec}, when it is a code policy with a relative {@code source}, with the source resolved against
     * {@code baseDir} (the directory of the file that names it), so the spec builds the same policy anywhere later.
     */
    public static PolicySpec withSourceResolved(PolicySpec spec, Path baseDir) {
        return NAME.equals(spec.name()) ? CodeParams.resolved(spec, baseDir) : spec;
    }
}
