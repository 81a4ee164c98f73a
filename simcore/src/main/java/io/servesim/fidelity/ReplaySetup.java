package io.servesim.fidelity;

import io.servesim.config.ConfigException;
import io.servesim.engine.EngineConfig;
import io.servesim.latency.BlackboxCoefficients;
import io.servesim.latency.ExpertParallelModel;
import io.servesim.latency.CudaGraphSizes;
import io.servesim.latency.ExpertParallelStep;
import io.servesim.latency.GpuCatalog;
import io.servesim.latency.GpuSpec;
import io.servesim.latency.KvCapacity;
import io.servesim.latency.LatencyKind;
import io.servesim.latency.LatencyModel;
import io.servesim.latency.LatencyModels;
import io.servesim.latency.KvCacheDtype;
import io.servesim.latency.LatencySpec;
import io.servesim.latency.Quantization;
import io.servesim.latency.ModelArchitecture;
import io.servesim.latency.ModelCatalog;
import io.servesim.latency.ProfileCatalog;
import io.servesim.latency.ResolvedLatency;
import io.servesim.run.PolicyKind;
import io.servesim.run.RunPlan;
import io.servesim.run.SimConfigLoader;
import io.servesim.run.SimSetup;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The simulator set up like the real engine: the run's vLLM settings ({@link EngineSettings}), its
 * GPU and model, and the chosen latency model.
 *
 * <p>GPU: {@code meta.json hardware.device_name} when the run records it, else {@code --hardware}
 * (giving both is accepted only when they name the same GPU). Model: {@code meta.json model}, or the
 * {@code --model} override. KV capacity: {@code num_gpu_blocks} when the run records it, else
 * derived from GPU memory as vLLM's profiling run does ({@link KvCapacity}:
 * {@code floor((memory x gpu_memory_utilization - weights/tp - activation peak - non-torch) /
 * (block_size x KV bytes per token per GPU))}). {@code max_model_len} defaults to the model's
 * {@code max_position_embeddings}, as vLLM does.
 *
 * @param sim        engine limits and latency model
 * @param modelId    model simulated
 * @param gpu        GPU simulated
 * @param kvSource   where the KV capacity came from
 */
public record ReplaySetup(SimSetup sim, String modelId, GpuSpec gpu, String kvSource) {

    /** Resolves {@code options} against {@code run} on the bundled GPUs; problems are {@link ConfigException}s naming the flag or file. */
    public static ReplaySetup resolve(RealRun run, ReplayOptions options) {
        return resolve(run, options, GpuCatalog.builtIn());
    }

    /** As {@link #resolve(RealRun, ReplayOptions)}, with the GPU looked up in {@code gpus} (the bundled ones plus a user's rows). */
    public static ReplaySetup resolve(RealRun run, ReplayOptions options, GpuCatalog gpus) {
        EngineSettings s = run.settings();
        String kwargs = run.directory().resolve("meta.json") + " engine_kwargs";
        LatencyKind kind = LatencyKind.find(options.latencyKind()).filter(LatencyKind::isConcrete).orElseThrow(
                () -> new ConfigException("--latency-model", "unknown latency model '" + options.latencyKind() + "'; valid: "
                        + String.join(", ", LatencyKind.concreteNames())));
        GpuSpec gpu = gpu(run, options.hardwareOrNull(), gpus);
        String modelId = options.modelOrNull() != null ? options.modelOrNull() : s.model();
        ModelArchitecture arch;
        LatencyModel latency;
        if (options.profileDirOrNull() != null) {
            if (kind != LatencyKind.PROFILED) {
                throw new ConfigException("--profile", "a profile directory is used only with --latency-model profiled");
            }
            if (s.kvCache().bytes() > 0 || s.quantization() != Quantization.AUTO) {
                String field = s.kvCache().bytes() > 0 ? "kv_cache_dtype" : "quantization";
                throw new ConfigException(kwargs + "." + field, "a profile is measured with the checkpoint's"
                        + " weights and the KV cache in the model's dtype; replay this run with --latency-model roofline");
            }
            arch = architecture(modelId);
            latency = ProfileCatalog.fromDirectory(options.profileDirOrNull(), arch, gpu, gpus, s.tensorParallel(), "--profile");
        } else {
            ResolvedLatency resolved = latency(kind, modelId, gpu, s.tensorParallel(), options.coefficientsOrNull(), gpus,
                    s.kvCache(), s.quantization(), kwargs);
            arch = resolved.architectureOrNull();
            latency = resolved.model();
        }
        int ranks = s.dataParallel();
        boolean ep = expertParallel(s, arch, kwargs);
        int blocks;
        String kvSource;
        if (s.numGpuBlocksOrZero() > 0) {
            blocks = s.numGpuBlocksOrZero();
            kvSource = "num_gpu_blocks of the run";
        } else {
            if (arch == null) {
                throw new ConfigException("--model", "the run does not record num_gpu_blocks and model " + modelId
                        + " is not bundled, so KV capacity cannot be derived; give a bundled model id or a config.json path");
            }
            blocks = KvCapacity.estimate(arch, gpu, s.tensorParallel(), ep ? ranks * s.tensorParallel() : 1,
                    s.blockSizeTokens(), s.gpuMemoryUtilization(), s.maxNumBatchedTokens(), s.maxNumSeqs(),
                    kwargs).totalBlocks();
            kvSource = "derived from GPU memory as vLLM does (KvCapacity)" + (ranks > 1 ? ", per rank" : "");
        }
        int maxModelLen = s.maxModelLenOrZero() > 0 ? s.maxModelLenOrZero()
                : arch != null ? arch.contextLength().tokens() : 0;
        EngineConfig engine = new EngineConfig(s.maxNumSeqs(), s.maxNumBatchedTokens(), s.longPrefillTokenThreshold(),
                maxModelLen, s.blockSizeTokens(), blocks, s.prefixCaching()).withAsyncScheduling(s.asyncScheduling())
                .withMacroSteps(!ep);
        RunPlan.checkReplayed(kwargs, engine, s.maxModelLenOrZero(), ranks, arch);
        return new ReplaySetup(deployment(engine, latency, ranks, ep, gpu), modelId, gpu, kvSource);
    }

    /**
     * Whether the run's ranks step as one expert-parallel group: {@code enable_expert_parallel} over more than one GPU.
     * Refused: expert parallelism of a dense model (vLLM ignores the flag there; a run recording it is not what it says)
     * and within a TP group (the TP 1 MoE profile and the roofline's per-rank split assume one GPU per rank).
     */
    private static boolean expertParallel(EngineSettings s, ModelArchitecture arch, String kwargs) {
        if (!s.expertParallel() || s.dataParallel() * s.tensorParallel() == 1) {
            return false;
        }
        String path = kwargs + ".enable_expert_parallel";
        if (arch == null || !arch.feedForward().isMoe()) {
            throw new ConfigException(path, "true, but " + (arch == null ? "the model is not bundled, so whether it is a"
                    + " mixture of experts is unknown; give --model a config.json" : arch.name() + " has no MoE layers")
                    + ": expert parallelism shards MoE experts only");
        }
        if (s.dataParallel() > arch.feedForward().experts()) {
            throw new ConfigException(kwargs + ".data_parallel_size", s.dataParallel() + " with"
                    + " enable_expert_parallel: " + arch.name() + " has " + arch.feedForward().experts() + " experts, and"
                    + " each rank holds at least one (vLLM's determine_expert_map gives each rank experts // ranks of"
                    + " them); valid: 2 to " + arch.feedForward().experts());
        }
        if (s.tensorParallel() > 1) {
            throw new ConfigException(path, "true with tensor_parallel_size " + s.tensorParallel() + ": expert parallelism"
                    + " within a tensor-parallel group is not modelled (valid: tensor_parallel_size 1 with data_parallel_size"
                    + " above 1)");
        }
        return true;
    }

    /**
     * The deployment: one engine, or {@code ranks} engines behind vLLM's DP load balancer ({@code dp-load-balancer}),
     * stepping in lockstep when {@code ep} ({@link ExpertParallelStep} over the GPU's interconnect).
     */
    private static SimSetup deployment(EngineConfig engine, LatencyModel latency, int ranks, boolean ep, GpuSpec gpu) {
        SimSetup sim = SimSetup.single(engine, latency);
        if (ranks > 1) {
            sim = sim.withCluster(sim.cluster().withInstances(ranks))
                    .withPolicies(sim.policies().with(PolicyKind.ROUTING, SimConfigLoader.DP_LOAD_BALANCER));
        }
        if (!ep) {
            return sim;
        }
        if (!(latency instanceof ExpertParallelModel m)) {
            throw new ConfigException("--latency-model", latency.name() + " cannot price an expert-parallel run (its step"
                    + " is one engine's); valid for data_parallel_size " + ranks + " with enable_expert_parallel: roofline,"
                    + " profiled");
        }
        return sim.withExpertParallel(new ExpertParallelStep(m, ranks, gpu.interconnect(), 1.0,
                CudaGraphSizes.vllmDefault(engine.maxNumSeqs(), engine.maxNumBatchedTokens())));
    }

    /** The same deployment and GPU with another latency model. */
    public ReplaySetup withLatency(LatencyModel latency) {
        SimSetup s = sim.expertParallel() == null ? sim.withLatency(latency)
                : deployment(sim.engine(), latency, sim.cluster().instances(), true, gpu);
        return new ReplaySetup(s, modelId, gpu, kvSource);
    }

    private static ResolvedLatency latency(LatencyKind kind, String modelId, GpuSpec gpu, int tp, BlackboxCoefficients coefficients,
                                           GpuCatalog gpus, KvCacheDtype kvCache, Quantization quantization, String kwargs) {
        try {
            return LatencyModels.resolve(new LatencySpec(kind.configName(), modelId, gpu.name(), tp,
                    kind == LatencyKind.BLACKBOX ? coefficients : null, null, null, gpus, kvCache, quantization), "replay",
                    "--latency-model");
        } catch (ConfigException e) {
            ConfigException.Problem p = e.problems().get(0);
            String hint = kind == LatencyKind.BLACKBOX && coefficients == null
                    ? " (fit coefficients with servesim calibrate and pass --coefficients)" : "";
            throw new ConfigException(flag(p.path(), kwargs), p.message() + hint);
        }
    }

    /** The command-line flag or run field behind a latency-resolution error path. */
    private static String flag(String path, String kwargs) {
        return switch (path) {
            case "replay.model" -> "--model";
            case "replay.hardware" -> "--hardware";
            case "replay.tp" -> kwargs + ".tensor_parallel_size";
            case "replay.coefficients" -> "--coefficients";
            case "replay.kv_cache_dtype" -> kwargs + ".kv_cache_dtype";
            case "replay.quantization" -> kwargs + ".quantization";
            default -> "--latency-model";
        };
    }

    /** The architecture of a bundled model id or a config.json path, or null when neither. */
    private static ModelArchitecture architecture(String modelId) {
        if (modelId.trim().toLowerCase(Locale.ROOT).endsWith(".json")) {
            return ModelCatalog.read(Path.of(modelId.trim()), "--model");
        }
        return ModelCatalog.builtIn().find(modelId).map(e -> ModelCatalog.builtIn().architecture(e, "--model")).orElse(null);
    }

    private static GpuSpec gpu(RealRun run, String hardwareOrNull, GpuCatalog gpus) {
        String device = run.settings().deviceNameOrNull();
        if (device == null) {
            if (hardwareOrNull == null) {
                throw new ConfigException("--hardware", "required: " + run.directory().resolve("meta.json")
                        + " has no hardware.device_name; known GPUs: " + String.join(", ", gpus.names()));
            }
            return gpus.lookup(hardwareOrNull, "--hardware");
        }
        Path meta = run.directory().resolve("meta.json");
        GpuSpec fromRun = gpus.lookup(device, meta + " hardware.device_name");
        if (hardwareOrNull != null && !gpus.lookup(hardwareOrNull, "--hardware").name().equals(fromRun.name())) {
            throw new ConfigException("--hardware", hardwareOrNull + " contradicts " + meta + " hardware.device_name '" + device
                    + "' (" + fromRun.name() + ")");
        }
        return fromRun;
    }
}
