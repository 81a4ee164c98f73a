package io.servesim.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.cluster.AutoscalingBinder;
import io.servesim.cluster.AutoscalingConfig;
import io.servesim.cluster.ClusterBinder;
import io.servesim.cluster.ClusterConfig;
import io.servesim.config.ConfigException;
import io.servesim.config.ConfigNode;
import io.servesim.config.Overrides;
import io.servesim.config.Setting;
import io.servesim.config.StrictJson;
import io.servesim.disagg.PdBinder;
import io.servesim.disagg.PdSpec;
import io.servesim.engine.EngineConfig;
import io.servesim.latency.BlackboxCoefficients;
import io.servesim.latency.CalibratedCoefficients;
import io.servesim.latency.GpuCatalog;
import io.servesim.latency.LatencyKind;
import io.servesim.latency.LatencyModels;
import io.servesim.latency.KvCacheDtype;
import io.servesim.latency.LatencySpec;
import io.servesim.latency.Quantization;
import io.servesim.metrics.FitnessWeights;
import io.servesim.policy.PolicyBinder;
import io.servesim.policy.PolicyContext;
import io.servesim.policy.PolicySpec;
import io.servesim.slo.SloTargets;
import io.servesim.workload.WorkloadBinder;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a run config (YAML), applies {@code --set} overrides and binds it into a {@link SimConfig},
 * reporting every problem with its path. Relative file paths in the config resolve against the
 * config file's directory.
 */
public final class SimConfigLoader {
    /** The routing of a data-parallel deployment unless policies.routing names another: vLLM's DP load balancer. */
    public static final String DP_LOAD_BALANCER = "dp-load-balancer";
    /**
     * The workload when a config has none (for {@code run}, {@code sweep}, {@code evaluate} alike): the built-in
     * {@code chat} scenario's request lengths (fitted to the Azure LLM inference trace 2023, conversation service:
     * prompts gamma, mean 1,155 tokens; outputs lognormal, mean ~211 tokens) with Poisson arrivals at the trace's 5.53
     * requests/s for 1,000 requests ({@code workload.aggregate_rate}, {@code workload.num_requests} override them).
     */
    public static final String DEFAULT_WORKLOAD = "{scenario: chat, arrival: {process: poisson}, num_requests: 1000}";
    private static final String DEFAULT_WORKLOAD_LENGTHS = "default workload: chat-scenario lengths (Azure LLM conversation"
            + " trace 2023 fit: prompts mean 1155 tokens, outputs mean ~211), Poisson arrivals at ";
    /** One line for help. */
    public static final String DEFAULT_WORKLOAD_TEXT = DEFAULT_WORKLOAD_LENGTHS + "5.53 req/s, 1000 requests";
    private static final ObjectMapper YAML = StrictJson.yaml();
    /** The settings a deployment's latency model is resolved from ({@link LatencySpec}). */
    private static final List<Setting<?>> LATENCY_SETTINGS = List.of(DeploymentSettings.MODEL, DeploymentSettings.HARDWARE,
            DeploymentSettings.TP, DeploymentSettings.LATENCY_MODEL, DeploymentSettings.COEFFICIENTS,
            DeploymentSettings.PROFILE, DeploymentSettings.GPUS, DeploymentSettings.KV_CACHE_DTYPE,
            DeploymentSettings.QUANTIZATION, DeploymentSettings.ENCODER_US_PER_TOKEN, DeploymentSettings.EP_BALANCEDNESS);

    private SimConfigLoader() {
    }

    private static String defaultWorkloadText(double rateRps, long requests) {
        return DEFAULT_WORKLOAD_LENGTHS + new BigDecimal(Double.toString(rateRps)).stripTrailingZeros().toPlainString()
                + " req/s, " + requests + " requests";
    }

    /**
     * The note for {@code workload}, {@link #DEFAULT_WORKLOAD} after flags and overrides changed its rate or length (the
     * scenario's 5.53 req/s and 1,000 requests otherwise); empty when an override replaced it by another workload.
     */
    public static Optional<String> defaultWorkloadText(JsonNode workload) {
        if (workload == null || !"chat".equals(workload.path("scenario").asText()) || workload.has("clients")
                || workload.has("trace") || workload.has("stages")) {
            return Optional.empty();
        }
        JsonNode rate = workload.path("aggregate_rate");
        JsonNode n = workload.path("num_requests");
        return Optional.of(defaultWorkloadText(rate.isNumber() ? rate.asDouble() : 5.53,
                n.canConvertToLong() ? n.asLong() : 1000));
    }

    /** Sets {@link #DEFAULT_WORKLOAD} in {@code tree} when it has no workload; true when it did. */
    public static boolean addDefaultWorkload(ObjectNode tree) {
        JsonNode w = tree.get("workload");
        if (w != null && !w.isNull()) {
            return false;
        }
        Overrides.apply(tree, "workload=" + DEFAULT_WORKLOAD);
        return true;
    }

    /** {@code tree}, or a copy of it with {@link #DEFAULT_WORKLOAD} when it is a mapping without a workload. */
    private static JsonNode withDefaultWorkload(JsonNode tree) {
        if (!tree.isObject() || (tree.get("workload") != null && !tree.get("workload").isNull())) {
            return tree;
        }
        ObjectNode copy = ((ObjectNode) tree).deepCopy();
        addDefaultWorkload(copy);
        return copy;
    }

    /** Loads {@code file} (or an empty config when null), applies overrides, binds. */
    public static SimConfig load(Path file, List<String> overrides) {
        ObjectNode tree = file == null ? YAML.createObjectNode() : StrictJson.readMapping(file);
        for (String o : overrides) {
            Overrides.apply(tree, o);
        }
        Path baseDir = file == null ? Path.of("") : file.toAbsolutePath().getParent();
        return bind(tree, baseDir);
    }

    /** Binds a config tree. */
    public static SimConfig bind(JsonNode tree, Path baseDir) {
        return bind(tree, baseDir, Set.of());
    }

    /** Binds a config tree whose values at {@code fromFlags} came from the command line. */
    public static SimConfig bind(JsonNode tree, Path baseDir, Set<String> fromFlags) {
        return bind(ConfigNode.root(tree, fromFlags), tree, baseDir);
    }

    /**
     * Every setting of a config tree as bound, with its value and where it came from (default, file, flag, or derived);
     * the tree must be valid (its problems are thrown).
     */
    public static List<ConfigNode.Resolved> effective(JsonNode tree, Path baseDir, Set<String> fromFlags) {
        ConfigNode root = ConfigNode.root(tree, fromFlags);
        bind(root, tree, baseDir);
        return root.resolved();
    }

    /**
     * The SGLang core orders its wait queue by {@code engine.schedule_policy}: a scheduler policy other than the
     * default fcfs (which orders nothing) would not be applied, so it is refused with an engine of that kind.
     */
    private static void refuseSchedulerWithSglang(ConfigNode policies, PolicySpec scheduler, EngineConfig engine, PdSpec pd) {
        boolean sglang = engine.isSglang() || (pd != null && (pd.prefill().engine().isSglang() || pd.decode().engine().isSglang()));
        if (sglang && !"fcfs".equals(scheduler.name())) {
            policies.problem(scheduler.path(), "'" + scheduler.name() + "' orders the vLLM core's wait queue; with"
                    + " engine.kind: sglang the SGLang core orders it by engine.schedule_policy (lpm, fcfs, dfs-weight, lof,"
                    + " random); remove the scheduler policy or set engine.kind: vllm");
        }
    }

    private static SimConfig bind(ConfigNode given, JsonNode written, Path baseDir) {
        JsonNode tree = withDefaultWorkload(written);
        ConfigNode root = tree == written ? given : given.over(tree);
        long seed = root.get(RunSettings.SEED);
        long horizonUs = root.get(RunSettings.HORIZON);
        long maxEvents = root.get(RunSettings.MAX_EVENTS);
        ConfigNode deployment = root.child("deployment");
        int instances = deployment.getInt(DeploymentSettings.INSTANCES);
        int dp = deployment.getInt(DeploymentSettings.DP);
        boolean ep = deployment.get(DeploymentSettings.EP);
        LatencySpec latency = bindDeployment(deployment, baseDir);
        instances = dataParallel(deployment, instances, dp, ep, latency.tp());
        EngineConfig engine = EngineConfig.bind(root.child("engine"));
        if (dp > 1 && engine.isSglang()) {
            deployment.problem(deployment.pathOf("dp"), dp + " with engine.kind: sglang: deployment.dp is vLLM's"
                    + " data-parallel deployment (data_parallel_size ranks behind its DP load balancer). SGLang's --dp-size"
                    + " runs replicas behind its own controller (deployment.instances: " + dp + " with a routing policy)"
                    + " and its DP attention (--enable-dp-attention, which divides chunked_prefill_size by the dp size) is"
                    + " not modelled; valid with the SGLang core: 1");
        }
        PdSpec pd = PdBinder.bind(deployment, tree.get("engine"), latency);
        if (pd != null) {
            instances = pd.prefill().replicas() + pd.decode().replicas();
        }
        ClusterConfig cluster = ClusterBinder.bind(root.child("cluster"), instances);
        SloTargets slo = SloTargets.bind(root.child("slo"));
        io.servesim.engine.FrontEndSettings.Bound frontEnd = io.servesim.engine.FrontEndSettings.bind(root.child("frontend"));
        AutoscalingConfig autoscaling = AutoscalingBinder.bind(root.child("autoscaling"), instances);
        // the routing policy routes to the prefill pool of a P/D deployment, the decode routing to the decode pool
        PolicyContext ctx = new PolicyContext(autoscaling.enabled() ? autoscaling.maxReplicas() : instances, slo,
                (pd == null ? engine : pd.prefill().engine()).kvTiers().enabled(), baseDir);
        ConfigNode policies = root.child("policies");
        List<PolicyBinder.Bound<?>> bound = new ArrayList<>();
        Map<PolicyKind<?>, PolicySpec> specs = new LinkedHashMap<>();
        for (PolicyKind<?> kind : PolicyKind.ALL) {
            PolicyBinder.Bound<?> b = kind.bind(root, policies, ctx);
            bound.add(b);
            specs.put(kind, b.spec());
        }
        refuseSchedulerWithSglang(policies, specs.get(PolicyKind.SCHEDULER), engine, pd);
        policies.finish();
        if (dp > 1 && !policies.has(PolicyKind.ROUTING.name())) {
            // vLLM's API server sends each request to a DP rank by its internal load balancer
            specs.put(PolicyKind.ROUTING, PolicySpec.of(DP_LOAD_BALANCER, PolicyKind.ROUTING.configPath()));
        }
        if (dp > 1 && (pd != null || autoscaling.enabled())) {
            deployment.problem(deployment.pathOf("dp"), dp + " with " + (pd != null ? "deployment.architecture: pd"
                    : "autoscaling.enabled: true") + " is not modelled (one data-parallel deployment of fixed ranks);"
                    + " valid there: 1");
        }
        refuseUnusedAutoscalePolicy(policies, autoscaling);
        PolicySpec decodeRouting = null;
        if (pd != null) {
            refuseWithPd(root, autoscaling, cluster);
            decodeRouting = DecodeRouting.bind(deployment.child("pd"), ctx.withCpuKvTier(pd.decode().engine().kvTiers().enabled()));
        }
        PolicyBundle bundle = new PolicyBundle(specs);
        FitnessWeights fitness = FitnessWeights.NONE;
        String weights = root.get(RunSettings.FITNESS_WEIGHTS);
        if (weights != null) {
            try {
                fitness = FitnessWeights.parse(weights, "fitness_weights");
            } catch (ConfigException e) {
                e.problems().forEach(p -> root.problem(p.path(), p.message()));
            }
        }
        var workload = WorkloadBinder.bindSection(root, baseDir, horizonUs, slo);
        if (workload != null) {
            PolicyReferences.check(root, bound, workload);
        }
        root.finish();
        if (root.hasProblems()) {
            latencyProblems(root, latency);
        }
        root.throwIfProblems();
        return new SimConfig(seed, horizonUs, latency, engine, cluster, bundle, slo, fitness, workload, autoscaling, pd,
                decodeRouting, maxEvents, frontEnd, dp, ep);
    }

    /**
     * When the config is refused anyway, the latency model's problems too (a model id no catalog knows, a profile that
     * does not cover the model): the model resolves only after binding ({@link RunPlan}), so they would otherwise show
     * only once the rest is fixed. Skipped when a setting the latency model is resolved from has a problem (its
     * resolution would only repeat or confuse it); problems with the deployment's shape ({@code dp}, {@code ep},
     * {@code instances}, {@code architecture}, {@code pd}) do not stop it.
     */
    private static void latencyProblems(ConfigNode root, LatencySpec latency) {
        if (root.hasProblemAt("deployment")) {
            return;
        }
        for (Setting<?> setting : LATENCY_SETTINGS) {
            if (root.hasProblemUnder(setting.path())) {
                return;
            }
        }
        try {
            LatencyModels.resolve(latency, "deployment");
        } catch (ConfigException e) {
            e.problems().forEach(p -> root.problem(p.path(), p.message()));
        }
    }

    /**
     * {@code deployment.dp} and {@code deployment.ep}: the instances of a data-parallel deployment are its {@code dp}
     * ranks, so {@code instances} must stay 1 there; expert parallelism needs ranks to shard over and is modelled at TP 1
     * only (whether the model is a MoE one is checked when it resolves, {@link RunPlan}). Returns the instances.
     */
    private static int dataParallel(ConfigNode d, int instances, int dp, boolean ep, int tp) {
        if (dp > 1 && instances > 1) {
            d.problem(d.pathOf("instances"), instances + " with deployment.dp " + dp + ": a run models one data-parallel"
                    + " deployment, whose ranks are its instances; valid: 1");
        }
        if (ep && dp == 1) {
            d.problem(d.pathOf("ep"), "true needs deployment.dp above 1: the experts are sharded over the data-parallel"
                    + " ranks (expert parallelism within one tensor-parallel group is not modelled)");
        } else if (ep && tp > 1) {
            d.problem(d.pathOf("ep"), "true with deployment.tp " + tp + ": expert parallelism within a tensor-parallel"
                    + " group is not modelled; valid: tp 1 with dp above 1");
        }
        return dp > 1 ? dp : instances;
    }

    /**
     * {@code policies.autoscale} (or {@code autoscaling.policy}) decides only when replicas come and go: given (any policy, the default's name
     * included) with {@code autoscaling.enabled} false, it would be validated and then never asked, so it is refused
     * naming both paths, as {@link AutoscalingBinder} refuses the other {@code autoscaling:} keys. A sweep's
     * fixed-fleet alternative drops it with {@code policies.autoscale: null}.
     */
    private static void refuseUnusedAutoscalePolicy(ConfigNode policies, AutoscalingConfig autoscaling) {
        // autoscaling.policy is refused with the other autoscaling.* keys (AutoscalingBinder)
        String key = PolicyKind.AUTOSCALE.name();
        if (!autoscaling.enabled() && policies.has(key)) {
            policies.problem(policies.pathOf(key), "only applies with autoscaling.enabled: true (autoscaling.enabled is"
                    + " false, so the policy would never be asked); enable autoscaling or remove " + policies.pathOf(key));
        }
    }

    /**
     * What P/D disaggregation does not model is refused naming both paths rather than silently
     * ignored: autoscaling (one fleet; per-pool autoscaling is not modelled) and on-demand observability
     * (a pull before each pool's routing decision is not modelled).
     */
    private static void refuseWithPd(ConfigNode root, AutoscalingConfig autoscaling, ClusterConfig cluster) {
        if (autoscaling.enabled()) {
            root.problem("autoscaling.enabled", "not supported with deployment.architecture: pd (per-pool autoscaling is"
                    + " not modelled); set autoscaling.enabled: false or deployment.architecture: aggregated");
        }
        for (io.servesim.cluster.Signal s : io.servesim.cluster.Signal.values()) {
            if (cluster.observability().mode(s).kind() == io.servesim.cluster.Observability.Kind.ON_DEMAND) {
                root.problem("cluster.observability." + s.configName(), "on-demand is not supported with"
                        + " deployment.architecture: pd (valid there: immediate, periodic)");
                return;
            }
        }
    }

    /**
     * {@code deployment:}: model, hardware, TP, latency model; {@code coefficients} inline
     * ({@code {alpha: [..], beta: [..]}}) or as the path of a file {@code servesim calibrate} wrote
     * ({@link CalibratedCoefficients}); {@code profile}, a measured-profile directory for the profiled
     * model; {@code gpus}, a file of GPU rows in the bundled {@code gpus.yaml}'s format that {@code hardware}
     * may then name ({@link GpuCatalog#withFile}). Paths resolve against {@code baseDir}, a model's {@code config.json}
     * too unless it came from the command line ({@code --model}, {@code --set}: relative to the working directory).
     */
    private static LatencySpec bindDeployment(ConfigNode d, Path baseDir) {
        String model = d.get(DeploymentSettings.MODEL);
        if (model != null && model.trim().toLowerCase(Locale.ROOT).endsWith(".json") && !d.fromCommandLine("model")) {
            // a config.json named in the file is relative to the file's folder, as trace.path and gpus are
            model = baseDir.resolve(model.trim()).normalize().toString();
        }
        String hardware = d.get(DeploymentSettings.HARDWARE);
        int tp = d.getInt(DeploymentSettings.TP);
        String kind = d.get(DeploymentSettings.LATENCY_MODEL);
        BlackboxCoefficients coefficients = null;
        CalibratedCoefficients calibrated = null;
        if (d.raw().path("coefficients").isTextual()) {
            try {
                calibrated = CalibratedCoefficients.read(baseDir.resolve(d.get(DeploymentSettings.COEFFICIENTS)),
                        d.pathOf("coefficients"));
                coefficients = calibrated.coefficients();
            } catch (ConfigException e) {
                e.problems().forEach(p -> d.problem(p.path(), p.message()));
            }
        } else {
            ConfigNode c = d.child("coefficients");
            if (c.present()) {
                double[] alpha = triple(c, "alpha");
                double[] beta = triple(c, "beta");
                if (alpha != null && beta != null) {
                    coefficients = new BlackboxCoefficients(alpha[0], alpha[1], alpha[2], beta[0], beta[1], beta[2]);
                }
                c.finish();
            }
        }
        String profile = d.get(DeploymentSettings.PROFILE);
        GpuCatalog gpus = GpuCatalog.builtIn();
        String gpusFile = d.get(DeploymentSettings.GPUS);
        boolean gpusRead = true;
        if (gpusFile != null) {
            try {
                gpus = gpus.withFile(baseDir.resolve(gpusFile), d.pathOf("gpus"));
            } catch (ConfigException e) {
                e.problems().forEach(p -> d.problem(p.path(), p.message()));
                gpusRead = false;
            }
        }
        KvCacheDtype kvCache = KvCacheDtype.find(d.get(DeploymentSettings.KV_CACHE_DTYPE)).orElse(KvCacheDtype.AUTO);
        Quantization quantization = Quantization.find(d.get(DeploymentSettings.QUANTIZATION)).orElse(Quantization.AUTO);
        Double encoderUsPerToken = d.get(DeploymentSettings.ENCODER_US_PER_TOKEN);
        double epBalancedness = d.get(DeploymentSettings.EP_BALANCEDNESS);
        if (d.has("ep_balancedness") && !d.get(DeploymentSettings.EP)) {
            d.problem(d.pathOf("ep_balancedness"), "applies only with deployment.ep: true (the expert load of an"
                    + " expert-parallel deployment's ranks); set deployment.ep or remove it");
        }
        d.declare("architecture", "pd"); // bound by PdBinder
        d.finish();
        // checked here, not only when the latency model resolves, so it is reported with the other problems; not when the
        // user's GPU file was refused (its rows' problems are reported, and the GPU it names is not unknown)
        if (gpusRead) {
            GpuCatalog.checkName(gpus, hardware, d);
        }
        if (coefficients != null && LatencyKind.ROOFLINE.configName().equals(kind)) {
            d.problem(d.pathOf("coefficients"), "explicit blackbox coefficients conflict with latency_model: roofline");
        }
        if (profile != null && !LatencyKind.PROFILED.configName().equals(kind)) {
            d.problem(d.pathOf("profile"), "a profile directory is used only with latency_model: profiled, got " + kind);
        }
        if (coefficients == null && (model == null || hardware == null)) {
            d.problem(d.pathOf(model == null ? "model" : "hardware"),
                    "required (or give deployment.coefficients for a blackbox model)");
        }
        return new LatencySpec(kind, model, hardware, tp, coefficients, calibrated,
                profile == null ? null : baseDir.resolve(profile), gpus, kvCache, quantization,
                encoderUsPerToken == null ? LatencySpec.ENCODER_FROM_MODEL : encoderUsPerToken, epBalancedness);
    }

    private static double[] triple(ConfigNode c, String key) {
        JsonNode v = c.rawValue(key);
        if (v == null || !v.isArray() || v.size() != 3) {
            c.problem(c.pathOf(key), "must be a list of 3 numbers [" + key.charAt(0) + "0, " + key.charAt(0) + "1, "
                    + key.charAt(0) + "2] in microseconds");
            return null;
        }
        double[] out = new double[3];
        for (int i = 0; i < 3; i++) {
            if (!v.get(i).isNumber() || v.get(i).asDouble() < 0) {
                c.problem(c.pathOf(key) + "[" + i + "]", "must be a number >= 0");
                return null;
            }
            out[i] = v.get(i).asDouble();
        }
        return out;
    }
}
