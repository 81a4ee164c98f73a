package io.servesim.latency;

import io.servesim.config.ConfigException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Turns a {@link LatencySpec} into a latency model, validating it against the bundled catalogs
 * ({@link GpuCatalog}, {@link ModelCatalog}, {@link CoefficientTable}). Kinds:
 * <ul>
 *   <li>{@code blackbox}: explicit {@code coefficients} (model and hardware optional), else the
 *       trained coefficients of the (model, GPU, TP) triple, which must exist;</li>
 *   <li>{@code roofline}: needs a bundled model (or a path ending in {@code .json} to a Hugging Face
 *       config) and a GPU; TP must divide the attention heads, and the KV heads must be a multiple
 *       of TP or divide it (vLLM's sharding rule); MFU defaults to the GPU's;</li>
 *   <li>{@code profiled}: a measured profile bundled for the (model, GPU, TP) triple
 *       ({@link ProfileCatalog}); needs a model and a GPU;</li>
 *   <li>{@code auto} (the default): blackbox with explicit or trained coefficients when there are
 *       any, as BLIS does, else roofline.</li>
 * </ul>
 * Every problem is a {@link ConfigException} at {@code path.<field>} ({@code kind}, {@code model},
 * {@code hardware}, {@code tp}, {@code coefficients}, {@code mfu_prefill}, {@code mfu_decode}).
 */
public final class LatencyModels {
    /** Valid values of {@link LatencySpec#kind()}. */
    public static final List<String> KINDS = List.of("auto", "blackbox", "roofline", "profiled");

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
        String kind = spec.kind() == null ? "auto" : spec.kind().trim().toLowerCase(Locale.ROOT);
        if (!KINDS.contains(kind)) {
            throw new ConfigException(kindKey, "unknown latency model '" + spec.kind() + "'; valid: " + String.join(", ", KINDS));
        }
        int tp = spec.tp();
        if (tp < 1) {
            throw new ConfigException(path + ".tp", "tensor parallelism must be >= 1, got " + tp);
        }
        checkMfu(spec.mfuPrefill(), path + ".mfu_prefill");
        checkMfu(spec.mfuDecode(), path + ".mfu_decode");
        GpuSpec gpu = spec.hardware() == null ? null : GpuCatalog.builtIn().lookup(spec.hardware(), path + ".hardware");
        ModelArchitecture arch = findArchitecture(spec.modelId(), path + ".model");
        String modelKey = spec.modelId() == null ? null : coefficientKey(spec.modelId());

        if (kind.equals("profiled")) {
            return profiled(spec, arch, gpu, path, kindKey);
        }
        if (spec.coefficients() != null) {
            if (kind.equals("roofline")) {
                throw new ConfigException(path + ".coefficients", "explicit coefficients belong to the blackbox model, but "
                        + choice(kindKey, "roofline") + " is given; remove them or use " + choice(kindKey, "blackbox"));
            }
            checkCoefficients(spec.coefficients(), path + ".coefficients");
            rejectMfu(spec, path, kindKey, "explicit blackbox coefficients are given");
            return new ResolvedLatency(new BlackboxModel(spec.coefficients(), "explicit coefficients"),
                    OptionalInt.empty(), arch, gpu);
        }
        Optional<CoefficientTable.Entry> trained = modelKey == null || gpu == null ? Optional.empty()
                : CoefficientTable.builtIn().find(modelKey, gpu.name(), tp);
        if (kind.equals("blackbox") || (kind.equals("auto") && trained.isPresent())) {
            if (trained.isEmpty()) {
                throw noCoefficients(spec, gpu, modelKey, path, kindKey);
            }
            String triple = modelKey + " on " + gpu.name() + " TP" + tp;
            rejectMfu(spec, path, kindKey, "the blackbox model is used (trained coefficients for " + triple + ")");
            CoefficientTable.Entry e = trained.get();
            return new ResolvedLatency(new BlackboxModel(e.coefficients(), triple + " (trained, BLIS defaults.yaml)"),
                    OptionalInt.of(e.totalKvBlocks()), arch, gpu);
        }
        return roofline(spec, kind, arch, gpu, modelKey, path);
    }

    private static ResolvedLatency roofline(LatencySpec spec, String kind, ModelArchitecture arch, GpuSpec gpu,
                                            String modelKey, String path) {
        int tp = spec.tp();
        if (spec.modelId() == null) {
            throw new ConfigException(path + ".model", "the roofline model needs a model: one of "
                    + String.join(", ", ModelCatalog.builtIn().ids()) + ", or the path of a config.json");
        }
        if (arch == null) {
            String prefix = kind.equals("auto") ? "no trained blackbox coefficients for (" + modelKey + ", "
                    + (gpu == null ? "no GPU" : gpu.name()) + ", tp " + tp + ") and the roofline fallback needs a bundled model: " : "";
            throw new ConfigException(path + ".model", prefix + "unknown model '" + spec.modelId() + "'; bundled: "
                    + String.join(", ", ModelCatalog.builtIn().ids()) + " (or give the path of a config.json)");
        }
        if (gpu == null) {
            throw new ConfigException(path + ".hardware", "the roofline model needs hardware; known: "
                    + String.join(", ", GpuCatalog.builtIn().names()));
        }
        checkTensorParallel(arch, tp, path + ".tp");
        double mfuPrefill = Double.isNaN(spec.mfuPrefill()) ? gpu.mfuPrefill() : spec.mfuPrefill();
        double mfuDecode = Double.isNaN(spec.mfuDecode()) ? gpu.mfuDecode() : spec.mfuDecode();
        return new ResolvedLatency(new RooflineModel(arch, gpu, tp, mfuPrefill, mfuDecode), OptionalInt.empty(), arch, gpu);
    }

    private static ResolvedLatency profiled(LatencySpec spec, ModelArchitecture arch, GpuSpec gpu, String path, String kindKey) {
        if (spec.coefficients() != null) {
            throw new ConfigException(path + ".coefficients", "explicit coefficients belong to the blackbox model, but "
                    + choice(kindKey, "profiled") + " is given; remove them or use " + choice(kindKey, "blackbox"));
        }
        rejectMfu(spec, path, kindKey, "the profiled model is used");
        if (spec.modelId() == null || gpu == null) {
            throw new ConfigException(path + (spec.modelId() == null ? ".model" : ".hardware"), "the profiled model needs a "
                    + "model and hardware; bundled profiles: " + String.join("; ", ProfileCatalog.builtIn().available()));
        }
        LatencyModel model = ProfileCatalog.builtIn().resolve(spec.modelId(), arch, gpu, spec.tp(), path, kindKey);
        return new ResolvedLatency(model, OptionalInt.empty(), arch, gpu);
    }

    /** The architecture named by {@code modelId}: a {@code .json} path is read, a bundled id looked up, anything else is null. */
    private static ModelArchitecture findArchitecture(String modelId, String path) {
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

    private static ConfigException noCoefficients(LatencySpec spec, GpuSpec gpu, String modelKey, String path, String kindKey) {
        if (modelKey == null) {
            return new ConfigException(path + ".model", "the blackbox model needs a model id to look up trained coefficients "
                    + "(or explicit coefficients)");
        }
        if (gpu == null) {
            return new ConfigException(path + ".hardware", "the blackbox model needs hardware to look up trained coefficients "
                    + "(or explicit coefficients); known: " + String.join(", ", GpuCatalog.builtIn().names()));
        }
        List<String> triples = new ArrayList<>();
        for (CoefficientTable.Entry e : CoefficientTable.builtIn().entriesFor(modelKey)) {
            triples.add(e.gpu() + " tp " + e.tp());
        }
        String have = triples.isEmpty() ? "none for this model (" + CoefficientTable.builtIn().size() + " model/GPU/TP triples are trained)"
                : String.join(", ", triples);
        return new ConfigException(kindKey, "no trained blackbox coefficients for (model " + modelKey + ", GPU " + gpu.name()
                + ", tp " + spec.tp() + "); trained for this model: " + have
                + "; give coefficients explicitly or use " + choice(kindKey, "roofline"));
    }

    private static void checkTensorParallel(ModelArchitecture arch, int tp, String path) {
        ModelArchitecture.Attention a = arch.attention();
        if (a.heads() % tp != 0) {
            throw new ConfigException(path, "tp " + tp + " must divide the " + a.heads() + " attention heads of " + arch.name());
        }
        if (!a.isMla() && a.kvHeads() % tp != 0 && tp % a.kvHeads() != 0) {
            throw new ConfigException(path, "tp " + tp + " must divide the " + a.kvHeads() + " KV heads of " + arch.name()
                    + " or be a multiple of them");
        }
    }

    private static void checkMfu(double mfu, String path) {
        if (!Double.isNaN(mfu) && !GpuSpec.validMfu(mfu)) {
            throw new ConfigException(path, "MFU must be in (0, 1], got " + mfu);
        }
    }

    private static void rejectMfu(LatencySpec spec, String path, String kindKey, String why) {
        if (!Double.isNaN(spec.mfuPrefill()) || !Double.isNaN(spec.mfuDecode())) {
            String field = Double.isNaN(spec.mfuPrefill()) ? ".mfu_decode" : ".mfu_prefill";
            throw new ConfigException(path + field, "MFU applies only to the roofline model, but " + why
                    + "; remove it or use " + choice(kindKey, "roofline"));
        }
    }

    /** How to choose {@code kind} with {@code kindKey}: {@code deployment.latency_model: roofline}, {@code --latency-model roofline}. */
    static String choice(String kindKey, String kind) {
        return kindKey + (kindKey.startsWith("--") ? " " : ": ") + kind;
    }

    private static void checkCoefficients(BlackboxCoefficients c, String path) {
        double[] values = {c.a0(), c.a1(), c.a2(), c.b0(), c.b1(), c.b2()};
        String[] names = {"a0", "a1", "a2", "b0", "b1", "b2"};
        for (int i = 0; i < values.length; i++) {
            if (!(values[i] >= 0) || Double.isInfinite(values[i])) {
                throw new ConfigException(path + "." + names[i], "coefficient must be finite and >= 0 (us), got " + values[i]);
            }
        }
    }
}
