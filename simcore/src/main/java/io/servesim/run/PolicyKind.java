package io.servesim.run;

import io.servesim.cluster.AdmissionPolicy;
import io.servesim.cluster.AutoScalePolicy;
import io.servesim.cluster.PriorityPolicy;
import io.servesim.cluster.RoutingPolicy;
import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigNode;
import io.servesim.config.Setting;
import io.servesim.config.ValueType;
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
import java.util.ArrayList;
import java.util.List;

/**
 * A kind of control policy of a run: its registry (whose kind name is its key under {@code policies:}) and the
 * setting of its policy's name, {@code policies.<kind>.name} (one of the registry's; the kind's default policy, the
 * only place defaults are named, and its command-line flag), with a line saying what the kind decides. The config
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
 *   <li>add a constant here (registry, default, flag, what it decides) and list it in {@link #ALL};</li>
 *   <li>wire it: {@link Simulation} builds it with {@link #create} and hands it to its user.</li>
 * </ol>
 *
 * @param <P> the policy interface
 */
public final class PolicyKind<P> {
    public static final PolicyKind<AdmissionPolicy> ADMISSION = new PolicyKind<>(Admissions.REGISTRY, "always-admit",
            "--admission-policy", "Which arriving requests enter the cluster, now or after a delay (BLIS sim/admission.go).");
    public static final PolicyKind<PriorityPolicy> PRIORITY = new PolicyKind<>(Priorities.REGISTRY, "constant",
            "--priority-policy", "The score priority-aware schedulers serve requests by (BLIS sim/priority.go).");
    public static final PolicyKind<RoutingPolicy> ROUTING = new PolicyKind<>(Routers.REGISTRY, "round-robin",
            "--routing-policy", "The instance each admitted request goes to (BLIS sim/routing.go, llm-d's scorers, Dynamo's"
                    + " KV router).");
    public static final PolicyKind<SchedulingPolicy> SCHEDULER = new PolicyKind<>(Schedulers.REGISTRY, "fcfs",
            "--scheduler", "The order of each instance's wait queue (vLLM v1's fcfs and priority policies, BLIS's templates).");

    /**
     * Used only with {@code autoscaling.enabled: true}; given without it, {@link SimConfigLoader} refuses it.
     * Written as {@code policies.autoscale} (so a policy bundle carries it with the others) or, beside the
     * settings it goes with, as {@code autoscaling.policy}; not both.
     */
    public static final PolicyKind<AutoScalePolicy> AUTOSCALE = new PolicyKind<>(Autoscalers.REGISTRY, "threshold",
            "--autoscale-policy", "The replica count, with autoscaling.enabled (BLIS's ThresholdScaler, Kubernetes HPA, llm-d"
                    + " WVA); also written as autoscaling.policy.", "autoscaling", "policy");

    /** Every kind, in the order configs, summaries and help list them. */
    public static final List<PolicyKind<?>> ALL = List.of(ADMISSION, PRIORITY, ROUTING, SCHEDULER, AUTOSCALE);

    private final Registry<P> registry;
    private final Setting<String> policyName;
    private final String doc;
    /** Section and key of a second spelling ({@code autoscaling.policy}); null for none. */
    private final String altSection;
    private final String altKey;

    private PolicyKind(Registry<P> registry, String defaultName, String flag, String doc) {
        this(registry, defaultName, flag, doc, null, null);
    }

    /** A kind whose default policy {@code defaultName} must be registered (its name setting refuses it otherwise). */
    private PolicyKind(Registry<P> registry, String defaultName, String flag, String doc, String altSection, String altKey) {
        this.registry = registry;
        this.policyName = Setting.of("policies." + registry.kind() + ".name",
                ValueType.choice(List.copyOf(registry.names()), registry.kind() + " policy"), defaultName,
                "The " + registry.kind() + " policy's name; its parameters are policies." + registry.kind() + ".params (in a"
                        + " config file policies." + registry.kind() + " may be written as just the name).").flag(flag);
        this.doc = doc;
        this.altSection = altSection;
        this.altKey = altKey;
    }

    /** The kind's name and key under {@code policies:}, e.g. {@code routing}. */
    public String name() {
        return registry.kind();
    }

    /** Its config path, e.g. {@code policies.routing}. */
    public String configPath() {
        return "policies." + name();
    }

    /** The second spelling of its path ({@code autoscaling.policy}), or null when it has none. */
    public String altConfigPath() {
        return altSection == null ? null : altSection + "." + altKey;
    }

    /**
     * Where the config {@code tree} (the root mapping) holds this kind's policy: {@link #altConfigPath}
     * when it is written there, else {@link #configPath} (flags and policy bundles set it there).
     */
    public String configPathIn(JsonNode tree) {
        JsonNode section = altSection == null ? null : tree.get(altSection);
        JsonNode v = section == null || !section.isObject() ? null : section.get(altKey);
        return v != null && !v.isNull() ? altConfigPath() : configPath();
    }

    /** The setting of its policy's name, {@code policies.<kind>.name}. */
    public Setting<String> nameSetting() {
        return policyName;
    }

    /** The kind whose name or policy parameter {@code setting} is, or null for a setting of no policy kind. */
    public static PolicyKind<?> of(Setting<?> setting) {
        for (PolicyKind<?> k : ALL) {
            if (k.policyName == setting || k.registry.settings().contains(setting)) {
                return k;
            }
        }
        return null;
    }

    /** The command-line flag that sets {@link #configPath}, e.g. {@code --routing-policy}. */
    public String flag() {
        return policyName.flagName();
    }

    /** What the kind decides, a line for the settings catalog. */
    public String doc() {
        return doc;
    }

    /** The kind's settings: its policy's name, then every policy's parameters in registry order. */
    public List<Setting<?>> settings() {
        List<Setting<?>> all = new ArrayList<>(List.of(policyName));
        all.addAll(registry.settings());
        return List.copyOf(all);
    }

    public Registry<P> registry() {
        return registry;
    }

    /** The default policy, used when a config names none. */
    public PolicySpec defaultSpec() {
        return PolicySpec.of(policyName.defaultValue(), configPath());
    }

    /**
     * Binds {@code policies.<name>} (the default when absent), or the second spelling under {@code root}
     * when it is written there; both written is a problem on the second, naming the first. Problems are
     * recorded with their paths.
     */
    PolicyBinder.Bound<P> bind(ConfigNode root, ConfigNode policies, PolicyContext ctx) {
        policies.declare(name());
        if (configPathIn(root.raw()).equals(configPath())) {
            return PolicyBinder.bind(policies, name(), registry, policyName, ctx);
        }
        ConfigNode alt = root.child(altSection);
        if (policies.has(name())) {
            alt.problem(alt.pathOf(altKey), "given twice: also as " + configPath() + "; write the policy in one place"
                    + " (" + configPath() + ", or " + altConfigPath() + " beside the other autoscaling settings)");
        }
        return PolicyBinder.bind(alt, altKey, registry, policyName, ctx);
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
