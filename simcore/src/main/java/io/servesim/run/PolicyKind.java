package io.servesim.run;

import io.servesim.cluster.AdmissionPolicy;
import io.servesim.cluster.AutoScalePolicy;
import io.servesim.cluster.PriorityPolicy;
import io.servesim.cluster.RoutingPolicy;
import io.servesim.config.ConfigNode;
import io.servesim.engine.SchedulingPolicy;
import io.servesim.policy.PolicyBinder;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import io.servesim.policy.Registry;
import io.servesim.policy.admission.Admissions;
import io.servesim.policy.autoscale.Autoscalers;
import io.servesim.policy.priority.Priorities;
import io.servesim.policy.routing.Routers;
import io.servesim.policy.scheduling.Schedulers;
import java.util.List;

/**
 * A kind of control policy of a run: its registry (whose kind name is its key under {@code policies:}),
 * its default policy (the only place defaults are named) and its command-line flag. The config
 * loader, {@link PolicyBundle}, {@code --policy-config}, the CLI's flags, {@code validate}'s summary
 * and the contract tests iterate {@link #ALL}. A class of typed constants rather than an enum, so
 * each kind builds its own interface.
 *
 * <p>To add a kind of policy (e.g. autoscaling):
 * <ol>
 *   <li>declare its interface beside its user ({@code cluster} for cluster-wide policies,
 *       {@code engine} for per-instance ones), with defaults for the capabilities it may declare;</li>
 *   <li>give it a registry in its own package under {@code policy} (e.g.
 *       {@code policy.autoscaling.Autoscalers.REGISTRY}) and its policies, one class each, as
 *       {@link Registry} describes;</li>
 *   <li>add a constant here (registry, default, flag) and list it in {@link #ALL};</li>
 *   <li>wire it: {@link Simulation} builds it with {@link #create} and hands it to its user.</li>
 * </ol>
 *
 * @param <P> the policy interface
 */
public final class PolicyKind<P> {
    public static final PolicyKind<AdmissionPolicy> ADMISSION =
            new PolicyKind<>(Admissions.REGISTRY, "always-admit", "--admission-policy");
    public static final PolicyKind<PriorityPolicy> PRIORITY =
            new PolicyKind<>(Priorities.REGISTRY, "constant", "--priority-policy");
    public static final PolicyKind<RoutingPolicy> ROUTING =
            new PolicyKind<>(Routers.REGISTRY, "round-robin", "--routing-policy");
    public static final PolicyKind<SchedulingPolicy> SCHEDULER =
            new PolicyKind<>(Schedulers.REGISTRY, "fcfs", "--scheduler");

    /** Used only with {@code autoscaling.enabled: true}; given without it, {@link SimConfigLoader} refuses it. */
    public static final PolicyKind<AutoScalePolicy> AUTOSCALE =
            new PolicyKind<>(Autoscalers.REGISTRY, "threshold", "--autoscale-policy");

    /** Every kind, in the order configs, summaries and help list them. */
    public static final List<PolicyKind<?>> ALL = List.of(ADMISSION, PRIORITY, ROUTING, SCHEDULER, AUTOSCALE);

    private final Registry<P> registry;
    private final String defaultName;
    private final String flag;

    private PolicyKind(Registry<P> registry, String defaultName, String flag) {
        if (!registry.names().contains(defaultName)) {
            throw new IllegalArgumentException("default " + registry.kind() + " policy " + defaultName + " is not registered");
        }
        this.registry = registry;
        this.defaultName = defaultName;
        this.flag = flag;
    }

    /** The kind's name and key under {@code policies:}, e.g. {@code routing}. */
    public String name() {
        return registry.kind();
    }

    /** Its config path, e.g. {@code policies.routing}. */
    public String configPath() {
        return "policies." + name();
    }

    /** The command-line flag that sets {@link #configPath}, e.g. {@code --routing-policy}. */
    public String flag() {
        return flag;
    }

    public Registry<P> registry() {
        return registry;
    }

    /** The default policy, used when a config names none. */
    public PolicySpec defaultSpec() {
        return PolicySpec.of(defaultName, configPath());
    }

    /** Binds {@code policies.<name>} (the default when absent); problems are recorded on {@code policies}. */
    PolicyBinder.Bound<P> bind(ConfigNode policies, PolicyContext ctx) {
        return PolicyBinder.bind(policies, registry, defaultName, ctx);
    }

    /** A fresh policy of this kind as {@code bundle} names it (policies may keep per-run state). */
    public P create(PolicyBundle bundle, PolicyContext ctx) {
        return registry.create(bundle.spec(this), ctx);
    }

    @Override
    public String toString() {
        return name();
    }
}
