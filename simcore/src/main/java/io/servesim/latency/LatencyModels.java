package io.servesim.latency;

import io.servesim.config.ConfigException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Turns a {@link LatencySpec} into a latency model, validating it against the catalogs
 * ({@link GpuCatalog}: the bundled GPUs and the spec's own rows; {@link ModelCatalog}, {@link CoefficientTable}): the checks every kind shares
 * (TP, GPU and model lookup) here, then the chosen {@link LatencyKind}'s resolver:
 * <ul>
 *   <li>{@code blackbox} ({@link BlackboxModel#resolve}): explicit {@code coefficients} (model and
 *       hardware optional), else the trained coefficients of the (model, GPU, TP) triple, which must exist;</li>
 *   <li>{@code roofline} ({@link RooflineModel#resolve}): needs a bundled model (or a path ending in
 *       {@code .json} to a Hugging Face config) and a GPU; TP must divide the attention heads, and the
 *       KV heads must be a multiple of TP or divide it (vLLM's sharding rule);</li>
 *   <li>{@code profiled} ({@link ProfiledModel#resolve}): a measured profile bundled for the (model,
 *       GPU, TP) triple ({@link ProfileCatalog}); needs a model and a GPU;</li>
 *   <li>{@code auto} (the default): blackbox with explicit or trained coefficients when there are
 *       any, as BLIS does, else roofline.</li>
 * </ul>
 * Every problem is a {@link ConfigException} at {@code path.<field>} ({@code kind}, {@code model},
 * {@code hardware}, {@code tp}, {@code coefficients}).
 */
public final class LatencyModels {
    private LatencyModels() {
    }

    /**
     * Resolves {@code spec} of a run config, whose model is chosen by {@code <path>.latency_model}.
     *
     * @param path config path of the spec (e.g. {@code deployment}), prefixed to every error path
     */
    public static ResolvedLatency resolve(LatencySpec spec, String path) {
        return resolve(spec, path, path + ".latency_model");
    }

    /**
     * Resolves {@code spec}.
     *
     * @param path    config path of the spec (e.g. {@code deployment}), prefixed to every error path
     * @param kindKey the config key or flag that chooses the model ({@code deployment.latency_model},
     *                {@code --latency-model}): errors about the choice are reported there and name it
     */
    public static ResolvedLatency resolve(LatencySpec spec, String path, String kindKey) {
        LatencyKind kind = spec.kind() == null ? LatencyKind.AUTO : LatencyKind.find(spec.kind().trim()).orElseThrow(
                () -> new ConfigException(kindKey, "unknown latency model '" + spec.kind() + "'; valid: "
                        + String.join(", ", LatencyKind.names())));
        int tp = spec.tp();
        if (tp < 1) {
            throw new ConfigException(path + ".tp", "tensor parallelism must be >= 1, got " + tp);
        }
        GpuSpec gpu = spec.hardware() == null ? null : spec.gpus().lookup(spec.hardware(), path + ".hardware");
        ModelArchitecture arch = findArchitecture(spec.modelId(), path + ".model");
        if (spec.changesPrecision()) {
            arch = precision(spec, arch, kind, path, kindKey);
        }
        String modelKey = spec.modelId() == null ? null : coefficientKey(spec.modelId());
        return kind.resolve(new LatencyContext(kind, spec, path, kindKey, gpu, arch, modelKey));
    }

    /**
     * {@code arch} with the weights ({@code quantization}) and KV cache ({@code kv_cache_dtype}) {@code spec} asks for;
     * refused, at the setting's path, for the models measured with the checkpoint's own, and fp8 weights over a
     * checkpoint quantized otherwise (vLLM refuses a {@code --quantization} that differs from the config's method).
     */
    private static ModelArchitecture precision(LatencySpec spec, ModelArchitecture arch, LatencyKind kind, String path,
                                               String kindKey) {
        String key = spec.quantization() != Quantization.AUTO ? "quantization" : "kv_cache_dtype";
        String value = key.equals("quantization") ? spec.quantization().configName() : spec.kvCache().configName();
        if (kind == LatencyKind.BLACKBOX || kind == LatencyKind.PROFILED) {
            throw new ConfigException(path + "." + key, value + ": the " + kind.configName() + " model's "
                    + (kind == LatencyKind.BLACKBOX ? "coefficients were" : "profiles were") + " measured with the"
                    + " checkpoint's weights and the KV cache in the model's dtype, so they cannot price this; valid with "
                    + choice(kindKey, LatencyKind.ROOFLINE.configName()) + (kindKey.startsWith("--") ? ""
                    : " or auto (which then takes the roofline), or " + key + " auto"));
        }
        if (arch == null) {
            throw new ConfigException(path + "." + key, value + ": needs the model's architecture (a bundled model or a"
                    + " config.json) to size its weights and KV cache");
        }
        ModelArchitecture out = arch;
        if (spec.quantization() == Quantization.FP8) {
            if (arch.weightBytesPerParam() != 1.0 && arch.weightBytesPerParam() != arch.dtypeBytes()) {
                throw new ConfigException(path + ".quantization", "fp8: the checkpoint " + arch.name() + " is quantized"
                        + " to " + arch.weightBytesPerParam() + " bytes per weight by its config.json, and vLLM refuses"
                        + " a --quantization that differs from the checkpoint's method; valid: auto");
            }
            out = out.withWeightBytes(1.0);
        }
        return spec.kvCache().bytes() > 0 ? out.withKvCacheBytes(spec.kvCache().bytes()) : out;
    }

    /** The architecture named by {@code modelId}: a {@code .json} path is read, a bundled id looked up, anything else is null. */
    public static ModelArchitecture findArchitecture(String modelId, String path) {
        if (modelId == null) {
            return null;
        }
        if (modelId.trim().toLowerCase(Locale.ROOT).endsWith(".json")) {
            return ModelCatalog.read(Path.of(modelId.trim()), path);
        }
        return ModelCatalog.builtIn().find(modelId).map(e -> ModelCatalog.builtIn().architecture(e, path)).orElse(null);
    }

    /**
     * The id to look trained coefficients up under: the id as given when the table knows it (an alias
     * such as meta-llama/llama-3.3-70b-instruct has its own coefficients), else the bundled model's
     * canonical id (so a file stem such as llama-3.1-8b-instruct finds them too).
     */
    private static String coefficientKey(String modelId) {
        String given = modelId.trim().toLowerCase(Locale.ROOT);
        if (!CoefficientTable.builtIn().entriesFor(given).isEmpty()) {
            return given;
        }
        return ModelCatalog.builtIn().find(modelId).map(ModelCatalog.Entry::id).orElse(given);
    }

    /** How to choose {@code kind} with {@code kindKey}: {@code deployment.latency_model: roofline}, {@code --latency-model roofline}. */
    static String choice(String kindKey, String kind) {
        return kindKey + (kindKey.startsWith("--") ? " " : ": ") + kind;
    }
}
