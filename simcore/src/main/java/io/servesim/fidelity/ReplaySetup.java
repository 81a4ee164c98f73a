package io.servesim.fidelity;

import io.servesim.config.ConfigException;
import io.servesim.engine.EngineConfig;
import io.servesim.latency.BlackboxCoefficients;
import io.servesim.latency.GpuCatalog;
import io.servesim.latency.GpuSpec;
import io.servesim.latency.KvCapacity;
import io.servesim.latency.LatencyKind;
import io.servesim.latency.LatencyModel;
import io.servesim.latency.LatencyModels;
import io.servesim.latency.LatencySpec;
import io.servesim.latency.ModelArchitecture;
import io.servesim.latency.ModelCatalog;
import io.servesim.latency.ProfileCatalog;
import io.servesim.latency.ResolvedLatency;
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
            arch = architecture(modelId);
            latency = ProfileCatalog.fromDirectory(options.profileDirOrNull(), arch, gpu, s.tensorParallel());
        } else {
            ResolvedLatency resolved = latency(kind, modelId, gpu, s.tensorParallel(), options.coefficientsOrNull(), gpus);
            arch = resolved.architectureOrNull();
            latency = resolved.model();
        }
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
            blocks = KvCapacity.estimate(arch, gpu, s.tensorParallel(), s.blockSizeTokens(), s.gpuMemoryUtilization(),
                    s.maxNumBatchedTokens(), s.maxNumSeqs(), "meta.json engine_kwargs").totalBlocks();
            kvSource = "derived from GPU memory as vLLM does (KvCapacity)";
        }
        int maxModelLen = s.maxModelLenOrZero() > 0 ? s.maxModelLenOrZero()
                : arch != null ? arch.contextLength().tokens() : 0;
        EngineConfig engine = new EngineConfig(s.maxNumSeqs(), s.maxNumBatchedTokens(), s.longPrefillTokenThreshold(),
                maxModelLen, s.blockSizeTokens(), blocks, s.prefixCaching()).withAsyncScheduling(s.asyncScheduling());
        return new ReplaySetup(SimSetup.single(engine, latency), modelId, gpu, kvSource);
    }

    /** The same engine and GPU with another latency model. */
    public ReplaySetup withLatency(LatencyModel latency) {
        return new ReplaySetup(SimSetup.single(sim.engine(), latency), modelId, gpu, kvSource);
    }

    private static ResolvedLatency latency(LatencyKind kind, String modelId, GpuSpec gpu, int tp, BlackboxCoefficients coefficients,
                                           GpuCatalog gpus) {
        try {
            return LatencyModels.resolve(new LatencySpec(kind.configName(), modelId, gpu.name(), tp,
                    kind == LatencyKind.BLACKBOX ? coefficients : null, null, null, gpus), "replay", "--latency-model");
        } catch (ConfigException e) {
            ConfigException.Problem p = e.problems().get(0);
            String hint = kind == LatencyKind.BLACKBOX && coefficients == null
                    ? " (fit coefficients with servesim calibrate and pass --coefficients)" : "";
            throw new ConfigException(flag(p.path()), p.message() + hint);
        }
    }

    /** The command-line flag or run field behind a latency-resolution error path. */
    private static String flag(String path) {
        return switch (path) {
            case "replay.model" -> "--model";
            case "replay.hardware" -> "--hardware";
            case "replay.tp" -> "meta.json engine_kwargs.tensor_parallel_size";
            case "replay.coefficients" -> "--coefficients";
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
        GpuSpec fromRun = gpus.lookup(device, "meta.json hardware.device_name");
        if (hardwareOrNull != null && !gpus.lookup(hardwareOrNull, "--hardware").name().equals(fromRun.name())) {
            throw new ConfigException("--hardware", hardwareOrNull + " contradicts meta.json hardware.device_name '" + device
                    + "' (" + fromRun.name() + ")");
        }
        return fromRun;
    }
}
