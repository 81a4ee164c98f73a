package io.servesim.run;

import io.servesim.cluster.AutoscalingConfig;
import io.servesim.config.ConfigException;
import io.servesim.decisions.DecisionSink;
import io.servesim.decisions.TraceOptions;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.FrontEnd;
import io.servesim.engine.KvTierConfig;
import io.servesim.latency.CudaGraphSizes;
import io.servesim.latency.GpuSpec;
import io.servesim.latency.ExpertParallelModel;
import io.servesim.latency.ExpertParallelStep;
import io.servesim.latency.KvCapacity;
import io.servesim.latency.ModelArchitecture;
import io.servesim.latency.LatencyModel;
import io.servesim.latency.LatencyModels;
import io.servesim.latency.ModelArchitecture;
import io.servesim.latency.ResolvedLatency;
import io.servesim.metrics.RecordSink;
import io.servesim.metrics.RunSummary;
import io.servesim.workload.GeneratorSpec;
import io.servesim.workload.NetworkSpec;
import io.servesim.workload.RequestSource;
import io.servesim.workload.TraceSpec;
import io.servesim.workload.WorkloadSpec;
import io.servesim.workload.trace.TraceFormat;
import io.servesim.workload.trace.TraceHead;
import java.util.ArrayList;
import java.util.List;

/**
 * A validated, fully resolved run: latency model chosen, KV capacity and max_model_len settled,
 * policies checked. Resolution happens once, up front, so a bad config fails before anything runs;
 * {@link #run} can then be called any number of times, each a fresh deterministic simulation.
 *
 * <p>KV capacity, in order: {@code engine.total_kv_blocks}; else the {@code total_kv_blocks} vLLM
 * reported in the runs the trained blackbox coefficients came from (as BLIS does), taken as measured at vLLM's default
 * {@code gpu_memory_utilization} 0.9 and, at another utilization, scaled by the ratio of the GPU-memory estimates at the
 * two ({@link KvCapacity}); else derived from GPU memory. {@code max_model_len} defaults to the model's maximum length
 * ({@code max_position_embeddings}, rope scaling applied), as vLLM does; {@link StartupChecks}
 * refuses what vLLM refuses at start-up and what the simulator's heap cannot hold.
 */
public final class RunPlan {
    private final SimConfig config;
    private final ResolvedLatency latency;
    private final SimSetup setup;
    private final String kvCapacitySource;

    private RunPlan(SimConfig config, ResolvedLatency latency, SimSetup setup, String kvCapacitySource) {
        this.config = config;
        this.latency = latency;
        this.setup = setup;
        this.kvCapacitySource = kvCapacitySource;
    }

    /** Resolves and validates; throws {@link ConfigException} naming every bad path. */
    public static RunPlan prepare(SimConfig cfg) {
        if (cfg.pd() != null) {
            return preparePd(cfg);
        }
        ResolvedLatency resolved = LatencyModels.resolve(cfg.latency(), "deployment");
        List<ConfigException.Problem> problems = new ArrayList<>();
        ExpertParallelStep ep = cfg.expertParallel() ? expertParallel(resolved, cfg.dataParallel(),
                cfg.latency().epBalancedness(), cfg.engine(), problems) : null;
        if (ep != null && cfg.engine().speculative().enabled()) {
            problems.add(new ConfigException.Problem("engine.speculative", "cannot run with deployment.ep: an expert-parallel"
                    + " group's step is priced by its ranks' lockstep, which has no drafter; remove one of them"));
        }
        EngineConfig engine = cfg.engine().withSpeculative(cfg.engine().speculative().seeded(cfg.seed()));
        Engines engines = resolveEngine(ep == null ? engine : engine.withMacroSteps(false), resolved,
                cfg.latency().tp(), ep == null ? 1 : ep.ranks(), cfg.cluster().instances(),
                cfg.latency().calibrated() != null ? String.valueOf(cfg.latency().calibrated().file()) : null,
                FleetKeys.AGGREGATED, problems);
        engines = EncoderPlan.apply(engines, cfg.workload(), cfg.latency(), resolved, cfg.latency().tp(),
                FleetKeys.AGGREGATED, ep != null, problems);
        checkWorkload(cfg, cfg.engine(), problems);
        AutoscalingConfig autoscaling = settle(cfg, resolved, problems);
        checkCostPriced(cfg, autoscaling.usdPerGpuHour(), cfg.latency().hardware(), problems);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        FrontEnd frontEnd = frontEnd(cfg, isBlackbox(resolved.model()), problems);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        SimSetup setup = SimSetup.builder(engines.engine(), engines.latency()).cluster(cfg.cluster()).policies(cfg.policies())
                .slo(cfg.slo()).fitness(cfg.fitness()).horizonUs(cfg.horizonUs()).autoscaling(autoscaling)
                .gpusPerReplica(cfg.latency().tp()).maxEvents(cfg.maxEvents()).frontEnd(frontEnd).expertParallel(ep)
                .build();
        return new RunPlan(cfg, resolved, setup, engines.kvCapacitySource());
    }

    /**
     * {@code deployment.ep}: the resolved model must be a mixture of experts, priced by a model that can split a rank's
     * step ({@link ExpertParallelModel}: roofline, profiled); the group's step is {@link ExpertParallelStep} over the
     * GPU's interconnect. Null (with the problem added) otherwise.
     */
    private static ExpertParallelStep expertParallel(ResolvedLatency resolved, int ranks, double balancedness,
                                                     EngineConfig engine, List<ConfigException.Problem> problems) {
        ModelArchitecture arch = resolved.architectureOrNull();
        if (arch != null && !arch.feedForward().isMoe()) {
            problems.add(new ConfigException.Problem("deployment.ep", "true, but " + arch.name() + " has no MoE layers:"
                    + " expert parallelism shards a mixture of experts' experts; valid for it: false"));
            return null;
        }
        if (arch != null && ranks > arch.feedForward().experts()) {
            problems.add(new ConfigException.Problem("deployment.dp", ranks + " with deployment.ep: " + arch.name()
                    + " has " + arch.feedForward().experts() + " experts, and each rank holds at least one"
                    + " (vLLM's determine_expert_map gives each rank experts // ranks of them); valid with deployment.ep:"
                    + " 2 to " + arch.feedForward().experts()));
            return null;
        }
        if (!(resolved.model() instanceof ExpertParallelModel m) || resolved.gpuOrNull() == null) {
            problems.add(new ConfigException.Problem("deployment.latency_model", resolved.model().name() + " cannot price"
                    + " an expert-parallel deployment (its step is one engine's); valid with deployment.ep: roofline, profiled"));
            return null;
        }
        return new ExpertParallelStep(m, ranks, resolved.gpuOrNull().interconnect(), balancedness,
                CudaGraphSizes.vllmDefault(engine.maxNumSeqs(), engine.maxNumBatchedTokens()));
    }

    /**
     * A replayed run's engine checked as a config's is once its KV capacity is known ({@link StartupChecks}): a
     * recorded {@code max_model_len} above the model's maximum (vLLM refuses to start), and its ranks' KV-cache
     * bookkeeping against this JVM's heap; the problems named under {@code kwargsPath}.
     *
     * @param kwargsPath        where the run's engine arguments are ({@code RUN/meta.json engine_kwargs})
     * @param maxModelLenOrZero the recorded {@code max_model_len}, 0 when the run took the model's
     * @param archOrNull        the model, null when not bundled (its maximum unknown)
     */
    public static void checkReplayed(String kwargsPath, EngineConfig engine, int maxModelLenOrZero, int ranks,
                                     ModelArchitecture archOrNull) {
        List<ConfigException.Problem> problems = new ArrayList<>();
        FleetKeys keys = new FleetKeys(kwargsPath, kwargsPath, kwargsPath + ".data_parallel_size");
        if (maxModelLenOrZero > 0) {
            StartupChecks.maxModelLen(maxModelLenOrZero, archOrNull, "vLLM", keys, problems);
        }
        StartupChecks.fitsSimulator(ranks, engine.totalKvBlocks(), engine.prefixCaching(), Runtime.getRuntime().maxMemory(),
                keys, problems);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }

    /** A P/D run: each pool resolved as an aggregated fleet of its own ({@link PdPlan}). */
    private static RunPlan preparePd(SimConfig cfg) {
        List<ConfigException.Problem> problems = new ArrayList<>();
        PdPlan pd = PdPlan.resolve(cfg.pd(), cfg.workload(), cfg.autoscaling().usdPerGpuHour(), cfg.seed(), problems);
        checkWorkload(cfg, cfg.pd().prefill().engine(), problems);
        AutoscalingConfig autoscaling = pd == null ? cfg.autoscaling() : settle(cfg, pd.decodeLatency(), problems);
        if (pd != null) {
            checkCostPriced(cfg, pd.setup().usdPerHour(), cfg.pd().prefill().latency().hardware() + " or "
                    + cfg.pd().decode().latency().hardware(), problems);
        }
        if (problems.isEmpty() && pd != null) {
            var p = pd.setup().prefill();
            var d = pd.setup().decode();
            StartupChecks.poolsFitSimulator(p.replicas(), p.engine().totalKvBlocks(), p.engine().prefixCaching(),
                    d.replicas(), d.engine().totalKvBlocks(), d.engine().prefixCaching(), Runtime.getRuntime().maxMemory(),
                    problems);
        }
        FrontEnd frontEnd = pd == null ? FrontEnd.OFF : frontEnd(cfg, isBlackbox(pd.setup().prefill().latency())
                || isBlackbox(pd.setup().decode().latency()), problems);
        if (!problems.isEmpty() || pd == null) {
            throw new ConfigException(problems);
        }
        var decode = pd.setup().decode();
        SimSetup setup = SimSetup.builder(decode.engine(), decode.latency()).cluster(cfg.cluster())
                .policies(cfg.policies()).slo(cfg.slo()).fitness(cfg.fitness()).horizonUs(cfg.horizonUs())
                .autoscaling(autoscaling).gpusPerReplica(decode.tp()).maxEvents(cfg.maxEvents()).frontEnd(frontEnd).build()
                .withPd(pd.setup(), cfg.decodeRouting());
        return new RunPlan(cfg, pd.decodeLatency(), setup, pd.kvCapacitySource());
    }

    private static boolean isBlackbox(LatencyModel model) {
        return model instanceof io.servesim.latency.BlackboxModel;
    }

    /**
     * The serving front end ({@code frontend:}): on unless {@code frontend.enabled} says otherwise or, left unsaid, the
     * latency model is blackbox (its alpha coefficients already price the API server); costs given for a front end that
     * is off would do nothing and are refused, naming why it is off.
     */
    private static FrontEnd frontEnd(SimConfig cfg, boolean blackbox, List<ConfigException.Problem> problems) {
        io.servesim.engine.FrontEndSettings.Bound f = cfg.frontEnd();
        if (!f.on(blackbox)) {
            for (String path : f.given()) {
                problems.add(new ConfigException.Problem(path, f.enabled() != null ? "applies only with the front end on,"
                        + " but frontend.enabled is false" : "does nothing: the front end is off with the blackbox latency"
                        + " model, whose alpha coefficients already price the API server; set frontend.enabled: true to add it"
                        + " anyway, or remove " + path));
            }
        }
        return f.resolve(blackbox);
    }

    /**
     * A fitness weight on {@code cost_usd} needs the GPUs' price ({@code price}: per GPU-hour, or what a P/D deployment
     * costs per hour; NaN when unknown; {@code hardware} names the GPUs): without it every candidate's cost is null and
     * would score 0 alike.
     */
    private static void checkCostPriced(SimConfig cfg, double price, String hardware, List<ConfigException.Problem> problems) {
        if (cfg.fitness().has("cost_usd") && Double.isNaN(price)) {
            problems.add(new ConfigException.Problem("fitness_weights", "cost_usd needs the GPU's price: no sourced price for "
                    + hardware + " (the GPU table prices " + String.join(", ", cfg.latency().gpus().pricedNames())
                    + "); give the price per GPU-hour at autoscaling.gpu_price_per_hour, or usd_per_gpu_hour and"
                    + " price_source in a deployment.gpus row"));
        }
    }

    /**
     * An engine config with its KV capacity and max_model_len resolved, where the capacity came from, and the latency
     * model its engines step with (the deployment's, with speculative decoding's drafter when it speculates).
     */
    record Engines(EngineConfig engine, String kvCapacitySource, LatencyModel latency) {
    }

    /**
     * KV capacity, max_model_len and the CPU tier of {@code instances} engines {@code e} on {@code resolved}
     * (problems at the paths {@code keys} name: the aggregated deployment's or a P/D pool's).
     *
     * @param calibratedFile the calibrated coefficients file the capacity may come from, or null
     */
    static Engines resolveEngine(EngineConfig e, ResolvedLatency resolved, int tp, int instances, String calibratedFile,
                                 FleetKeys keys, List<ConfigException.Problem> problems) {
        return resolveEngine(e, resolved, tp, 1, instances, calibratedFile, keys, problems);
    }

    /**
     * As above, for engines whose MoE experts are sharded over {@code expertRanks} GPUs (an expert-parallel
     * deployment's ranks, {@link KvCapacity}: E / ep experts each; 1 otherwise).
     */
    static Engines resolveEngine(EngineConfig e, ResolvedLatency resolved, int tp, int expertRanks, int instances,
                                 String calibratedFile, FleetKeys keys, List<ConfigException.Problem> problems) {
        int blocks;
        String source;
        String phrase; // where the blocks come from, as the KV checks' messages say it
        if (e.totalKvBlocks() > 0) {
            blocks = e.totalKvBlocks();
            source = keys.engine("total_kv_blocks");
            phrase = "of " + source;
        } else if (resolved.kvBlocksFromCoefficients().isPresent()
                && e.gpuMemoryUtilization() != EngineConfig.DEFAULT_GPU_MEMORY_UTILIZATION) {
            // the coefficients' capacity holds at vLLM's default utilization: another one scales it by the memory estimate
            int measured = resolved.kvBlocksFromCoefficients().getAsInt();
            if (calibratedFile != null || resolved.architectureOrNull() == null || resolved.gpuOrNull() == null) {
                blocks = measured;
                source = "";
                phrase = "";
                problems.add(new ConfigException.Problem(keys.engine("gpu_memory_utilization"), String.format(
                        java.util.Locale.ROOT, "%.2f cannot be honoured: the KV capacity comes from the %s (%d blocks, taken"
                                + " as measured at vLLM's default 0.9) and %s; set %s instead", e.gpuMemoryUtilization(),
                        calibratedFile != null ? "calibrated coefficients of " + calibratedFile : "trained coefficients", measured,
                        calibratedFile != null ? "the utilization of the calibration run is not recorded"
                                : "without the model's architecture and GPU it cannot be rescaled", keys.engine("total_kv_blocks"))));
            } else {
                KvCapacity at = KvCapacity.estimate(resolved.architectureOrNull(), resolved.gpuOrNull(), tp, e.blockSizeTokens(),
                        e.gpuMemoryUtilization(), e.maxNumBatchedTokens(), e.maxNumSeqs(), keys.deployment());
                KvCapacity atDefault = KvCapacity.estimate(resolved.architectureOrNull(), resolved.gpuOrNull(), tp,
                        e.blockSizeTokens(), EngineConfig.DEFAULT_GPU_MEMORY_UTILIZATION, e.maxNumBatchedTokens(), e.maxNumSeqs(),
                        keys.deployment());
                blocks = Math.max(1, (int) Math.round((double) measured * at.totalBlocks() / atDefault.totalBlocks()));
                source = String.format(java.util.Locale.ROOT, "trained coefficients' %d blocks (taken as measured at"
                        + " gpu_memory_utilization 0.9) scaled to %.2f by the GPU-memory estimate (%d / %d blocks)", measured,
                        e.gpuMemoryUtilization(), at.totalBlocks(), atDefault.totalBlocks());
                phrase = "of the trained coefficients' total_kv_blocks scaled to gpu_memory_utilization "
                        + String.format(java.util.Locale.ROOT, "%.2f", e.gpuMemoryUtilization());
            }
        } else if (resolved.kvBlocksFromCoefficients().isPresent()) {
            blocks = resolved.kvBlocksFromCoefficients().getAsInt();
            source = calibratedFile != null
                    ? "calibrated coefficients (total_kv_blocks of " + calibratedFile + ")"
                    : "trained coefficients (total_kv_blocks)";
            phrase = calibratedFile != null ? "of the " + source : "of the trained coefficients' total_kv_blocks";
        } else if (resolved.architectureOrNull() != null && resolved.gpuOrNull() != null) {
            blocks = KvCapacity.estimate(resolved.architectureOrNull(), resolved.gpuOrNull(), tp, expertRanks,
                    e.blockSizeTokens(), e.gpuMemoryUtilization(), e.maxNumBatchedTokens(), e.maxNumSeqs(),
                    keys.deployment()).totalBlocks();
            source = "derived from GPU memory";
            phrase = String.format(java.util.Locale.ROOT, "derived from GPU memory at gpu_memory_utilization %.2f",
                    e.gpuMemoryUtilization());
        } else {
            blocks = 1;
            source = "";
            phrase = "";
            problems.add(new ConfigException.Problem(keys.engine("total_kv_blocks"),
                    "required: the model and GPU are not both known, so KV capacity cannot be derived"));
        }
        if (e.isSglang() && e.totalKvBlocks() <= 0 && resolved.kvBlocksFromCoefficients().isPresent() && !source.isEmpty()) {
            // the coefficients' capacity is in blocks of the vLLM runs they were fit on (vLLM's default 16 tokens):
            // the SGLang core holds as many tokens in pages of page_size
            int vllmBlockSize = Math.toIntExact(io.servesim.engine.EngineSettings.BLOCK_SIZE.defaultValue());
            blocks = Math.max(1, (int) Math.min(Integer.MAX_VALUE, (long) blocks * vllmBlockSize / e.blockSizeTokens()));
            source += " as " + blocks + " pages of " + e.blockSizeTokens() + " tokens (" + vllmBlockSize + "-token vLLM blocks)";
        }
        LatencyModel latency = resolved.model();
        if (e.speculative().enabled()) {
            SpeculativePlan.Sized sized = SpeculativePlan.size(e, resolved, tp, blocks, source, phrase, keys, problems);
            latency = sized.latency();
            blocks = sized.blocks();
            source = sized.source();
        }
        int maxModelLen = StartupChecks.maxModelLen(e.maxModelLen(), resolved.architectureOrNull(),
                e.isSglang() ? "SGLang" : "vLLM", keys, problems);
        if (!source.isEmpty()) {
            if (e.isSglang()) {
                int capped = StartupChecks.sglangRequestLimit(maxModelLen, blocks, e.blockSizeTokens());
                if (capped != maxModelLen) {
                    source += "; SGLang caps a request at " + capped + " tokens, one less than its pool holds"
                            + (maxModelLen > 0 ? " (max_model_len " + maxModelLen + ")" : "");
                    maxModelLen = capped;
                }
            } else {
                StartupChecks.holdsOneSequence(maxModelLen, blocks, e.blockSizeTokens(), phrase,
                        resolved.architectureOrNull(), tp, keys, problems);
            }
            StartupChecks.fitsSimulator(instances, blocks, e.prefixCaching(), Runtime.getRuntime().maxMemory(), keys,
                    problems);
        }
        KvTierConfig tiers = resolveTiers(e.kvTiers(), resolved, tp, e.blockSizeTokens(), keys, problems);
        return new Engines(e.resolved(maxModelLen, blocks).withKvTiers(tiers), source, latency);
    }

    /**
     * The workload is required, a trace must hold a request (an empty one would run nothing and exit 0 with an
     * all-null summary), and a trace's block size must be a multiple of the engines' block size.
     */
    private static void checkWorkload(SimConfig cfg, EngineConfig engine, List<ConfigException.Problem> problems) {
        int blockSizeTokens = engine.blockSizeTokens();
        if (cfg.workload() == null) {
            problems.add(new ConfigException.Problem("workload", "required: a workload spec (inline, a file path or {scenario: name})"));
        }
        if (cfg.workload() instanceof TraceSpec trace && TraceHead.holdsNoRequests(trace)) {
            problems.add(new ConfigException.Problem("workload.trace.path", trace.path() + " holds no requests ("
                    + (trace.skipBadLines() ? "no line it could read; skip_bad_lines skipped every one"
                            : trace.format() == TraceFormat.MOONCAKE
                            || trace.format() == TraceFormat.VLLM ? "no line"
                            : "no line after its header")
                    + "): nothing to replay"));
        }
        int divide = cfg.workload() == null ? 0 : cfg.workload().blockSizeMustDivide();
        if (divide > 0 && divide % blockSizeTokens != 0) {
            problems.add(new ConfigException.Problem("engine." + engine.blockSizeKey(), "must divide " + divide
                    + " (the workload's trace block size) for prefix reuse to map onto KV blocks; got " + blockSizeTokens));
        }
    }

    /**
     * The CPU tier with its link bandwidth (the GPU's host link unless given) and its block bytes
     * (block size x the model's KV bytes per token per GPU, as the roofline model counts them).
     */
    static KvTierConfig resolveTiers(KvTierConfig tiers, ResolvedLatency resolved, int tp, int blockSizeTokens,
                                     FleetKeys keys, List<ConfigException.Problem> problems) {
        if (!tiers.enabled()) {
            return tiers;
        }
        GpuSpec gpu = resolved.gpuOrNull();
        ModelArchitecture arch = resolved.architectureOrNull();
        if (tiers.transferBandwidthGbPerS() == KvTierConfig.BANDWIDTH_FROM_GPU && gpu == null) {
            problems.add(new ConfigException.Problem(keys.engine("kv_transfer_bandwidth"), "required with kv_cpu_blocks > 0"
                    + " when " + keys.deployment() + ".hardware is not a known GPU (its host link is the default)"));
        }
        if (arch == null) {
            problems.add(new ConfigException.Problem(keys.engine("kv_cpu_blocks"),
                    "needs the model's architecture (KV bytes per token, for transfer times): deployment.model must be a bundled model or a config.json"));
        }
        if (!problems.isEmpty() || arch == null) {
            return tiers;
        }
        return tiers.resolved(gpu == null ? 0 : gpu.hostLinkGbPerS(), (long) blockSizeTokens * arch.kvBytesPerTokenPerGpu(tp));
    }

    /**
     * The autoscaling config with its weight-load time (the model's weight bytes, from its
     * {@code config.json}, over the load bandwidth) and GPU price (the GPU table's, {@code usd_per_gpu_hour} of
     * {@code gpus.yaml} or of a {@code deployment.gpus} row, unless
     * {@code autoscaling.gpu_price_per_hour}) settled; the fleet's slots must fit in memory.
     */
    private static AutoscalingConfig settle(SimConfig cfg, ResolvedLatency resolved, List<ConfigException.Problem> problems) {
        AutoscalingConfig a = cfg.autoscaling();
        if (Double.isNaN(a.usdPerGpuHour())) {
            a = a.withPrice(cfg.latency().gpus().price(cfg.latency().hardware()).usdPerGpuHour());
        }
        if (!a.enabled()) {
            return a;
        }
        var arch = resolved.architectureOrNull();
        a = a.resolveLoad(arch == null ? Double.NaN : arch.weightBytes());
        if (a.loadUs() < 0) {
            problems.add(new ConfigException.Problem("autoscaling.load_time",
                    "required: the model's size is unknown (no config.json for it), so its load time cannot be derived"));
            a = a.resolveLoad(0);
        }
        return a;
    }

    /**
     * One fresh run streaming everything it produces: request records to {@code sink}, one record per
     * agentic session to {@code sessions}, decisions to {@code decisions} at the level {@code trace}
     * asks (with {@link TraceOptions#OFF} no decision is built and {@code decisions} is never called).
     */
    public RunSummary run(RecordSink sink, io.servesim.metrics.SessionSink sessions, DecisionSink decisions,
                          TraceOptions trace) {
        Simulation sim = new Simulation(setup, source(), sink, sessions);
        return (trace.on() ? sim.traceDecisions(decisions, trace) : sim).run();
    }

    /**
     * One fresh run; request records stream to {@code sink}, one record per agentic session to
     * {@code sessions}.
     */
    public RunSummary run(RecordSink sink, io.servesim.metrics.SessionSink sessions) {
        return new Simulation(setup, source(), sink, sessions).run();
    }

    /**
     * Realized regret of {@code sampled} routing decisions of this plan's run (each with its
     * counterfactual candidates): one re-simulation per alternative ({@link RealizedRegretProbe}).
     */
    public List<io.servesim.decisions.RealizedRegret> realizedRegret(List<io.servesim.decisions.DecisionRecord> sampled) {
        return new RealizedRegretProbe(setup, () -> source()).probe(sampled);
    }

    /**
     * A fresh source of the run's requests. With a default client network ({@code frontend.network_rtt_us}) a
     * generated workload's clients without a {@code network:} of their own get it ({@link GeneratorSpec#withDefaultNetwork}),
     * so a session's follow-ups pay its request leg too; a trace's requests get it on arrival ({@link ClientNetworkFeature}).
     */
    private RequestSource source() {
        WorkloadSpec w = config.workload();
        long rttUs = setup.frontEnd().defaultNetworkRttUs();
        if (rttUs > 0 && w instanceof GeneratorSpec g) {
            w = g.withDefaultNetwork(new NetworkSpec(0, NetworkSpec.UNLIMITED, rttUs));
        }
        return w.open(config.seed(), config.horizonUs());
    }

    /** The routing policy's template name ({@code policies.routing.name}). */
    public String routingPolicyName() {
        return setup.policies().spec(PolicyKind.ROUTING).name();
    }

    /** One fresh simulation run; records stream to {@code sink}. */
    public RunSummary run(RecordSink sink) {
        return new Simulation(setup, source(), sink).run();
    }

    /** What the serving front end adds to this run's latencies, or why it is off (for summaries). */
    public String frontEndDescription() {
        if (setup.frontEnd().enabled()) {
            return setup.frontEnd().describe();
        }
        return config.frontEnd().enabled() != null ? "off (frontend.enabled: false)"
                : "off: the blackbox latency model's alpha coefficients price the API server (frontend.enabled: true adds it)";
    }

    public SimConfig config() { return config; }

    /**
     * Whether the run's seed changes anything in it: generated traffic draws from it, and so does speculative
     * decoding's acceptance; a trace replays its own arrivals and lengths whatever the seed (the built-in policies
     * draw nothing at random, and a code policy cannot read the seed).
     */
    public boolean seedMatters() {
        boolean speculative = config.engine().speculative().enabled() || (config.pd() != null
                && (config.pd().prefill().engine().speculative().enabled() || config.pd().decode().engine().speculative().enabled()));
        return !(config.workload() instanceof TraceSpec) || speculative;
    }
    public EngineConfig engineConfig() { return setup.engine(); }
    public SimSetup setup() { return setup; }
    public LatencyModel latencyModel() { return setup.latency(); }
    /**
     * Non-fatal notes, each naming its config path: binding notes (e.g. rate fractions normalised) and an
     * autoscaled fleet's missing GPU price (its cost is then null).
     */
    public java.util.List<String> warnings() {
        List<String> w = new ArrayList<>(config.workload() == null ? List.of() : config.workload().warnings());
        w.addAll(config.fitness().notes());
        if (config.latency().calibrated() != null && !latency.model().calibrationNote().isEmpty()) {
            w.add("deployment.coefficients: " + latency.model().calibrationNote());
        }
        if (!latency.note().isEmpty()) {
            w.add("deployment.model: " + latency.note());
        }
        var a = setup.autoscaling();
        if (a.enabled() && Double.isNaN(a.usdPerGpuHour())) {
            w.add("autoscaling.gpu_price_per_hour: no sourced price for " + config.latency().hardware()
                    + " (the GPU table prices " + String.join(", ", config.latency().gpus().pricedNames()) + "), so cost_usd is null;"
                    + " give the price per GPU-hour there");
        }
        return w;
    }

    /**
     * Whether {@code p} is a limit of this JVM rather than of the config: the KV-cache bookkeeping of the fleet would not
     * fit 3/4 of the maximum heap. The same config passes in a larger heap, so a search over configs (a capacity plan)
     * refuses to run rather than count it as a deployment that cannot run.
     */
    public static boolean needsLargerHeap(ConfigException.Problem p) {
        return p.message().endsWith(StartupChecks.LARGER_HEAP);
    }

    /** Where the KV capacity came from (shown by {@code servesim validate}). */
    public String kvCapacitySource() { return kvCapacitySource; }
}
