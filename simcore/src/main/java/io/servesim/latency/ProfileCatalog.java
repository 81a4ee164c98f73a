package io.servesim.latency;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The measured profiles bundled for the {@code profiled} latency model, indexed by
 * {@code profiles/index.yaml} (sources per entry there), plus {@link #fromDirectory} for a user's
 * own LLMServingSim-format profile. A bundled per-layer profile is read once per process (about
 * 0.2 s) and shared, which matters to sweeps that resolve it per cell. A profile applies to a model when their ids name the same
 * bundled architecture ({@link ModelCatalog}: the base and instruct models share one) and to the
 * GPU it was measured on.
 */
public final class ProfileCatalog {
    private static final ProfileCatalog BUILT_IN = load();

    /**
     * One bundled profile.
     *
     * @param id       short name
     * @param format   {@code llmservingsim} or {@code splitwise}
     * @param folder   resource folder under {@code profiles/}
     * @param models   model name in the profile -> Hugging Face id
     * @param hardware hardware name in the profile -> canonical GPU name
     */
    record Entry(String id, String format, String folder, Map<String, String> models, Map<String, String> hardware) {
    }

    private final List<Entry> entries;
    /** Bundled per-layer profiles already read, by "folder/tp" (immutable once read; shared by every run). */
    private final Map<String, LayerProfile> loaded = new ConcurrentHashMap<>();

    private ProfileCatalog(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    public static ProfileCatalog builtIn() {
        return BUILT_IN;
    }

    /**
     * The profiled latency model for {@code modelId} on {@code gpu} at {@code tp}.
     *
     * @param architectureOrNull the model's architecture when bundled (LLMServingSim profiles need
     *                           its {@code num_hidden_layers})
     * @param path               config path of the deployment, prefixed to errors
     * @param kindKey            the config key or flag that chose the profiled model, where a missing profile is reported
     * @throws ConfigException when no bundled profile matches, listing those that exist
     */
    public LatencyModel resolve(String modelId, ModelArchitecture architectureOrNull, GpuSpec gpu, int tp, String path,
                                String kindKey) {
        String model = canonicalModel(modelId);
        for (Entry e : entries) {
            Optional<String> profiledModel = e.models().entrySet().stream()
                    .filter(m -> canonicalModel(m.getValue()).equals(model)).map(Map.Entry::getKey).findFirst();
            Optional<String> profiledGpu = e.hardware().entrySet().stream()
                    .filter(h -> h.getValue().equals(gpu.name())).map(Map.Entry::getKey).findFirst();
            if (profiledModel.isEmpty() || profiledGpu.isEmpty()) {
                continue;
            }
            ProfileFiles files = ProfileFiles.bundled(e.folder());
            if (e.format().equals("splitwise")) {
                return SplitwiseModel.read(files, "perf_model.csv", profiledModel.get(), profiledGpu.get(), tp, e.id());
            }
            if (!files.sub("tp" + tp).exists("attention.csv")) {
                throw new ConfigException(path + ".tp", "profile " + e.id() + " has no tables for tensor parallelism " + tp);
            }
            LayerProfile profile = loaded.computeIfAbsent(e.folder() + "/" + tp, k -> LayerProfile.read(files, tp));
            return layered(profile, architectureOrNull, gpu, e.id(), path + ".model");
        }
        throw new ConfigException(kindKey, "no measured profile for model " + modelId + " on " + gpu.name() + "; bundled: "
                + String.join("; ", available()) + " (or use " + LatencyModels.choice(kindKey, LatencyKind.ROOFLINE.configName())
                + " or " + LatencyKind.BLACKBOX.configName() + ")");
    }

    /**
     * A profiled model from an LLMServingSim-format profile directory ({@code meta.yaml} and
     * {@code tp<N>/} tables, see {@link LayerProfile}).
     *
     * A profile's kernel times hold for the model shape and the GPU they were measured on, so its {@code meta.yaml}
     * must name them: its {@code hardware} the served GPU (a name or alias {@code gpus} knows), its {@code model} a
     * model of the served model's layer shape ({@link #sameLayers}; a model the catalog does not know, the same
     * {@code architecture} as the served model's {@code model_type}). Otherwise it is refused at {@code path}.
     *
     * @param model the served model (its layer count scales the per-layer tables)
     * @param gpus  the GPUs the run knows (the bundled ones plus a user's rows)
     * @param path  the setting that named the directory ({@code deployment.profile}, {@code --profile})
     */
    public static LatencyModel fromDirectory(Path dir, ModelArchitecture model, GpuSpec gpu, GpuCatalog gpus, int tp,
                                             String path) {
        LayerProfile profile;
        try {
            profile = LayerProfile.read(ProfileFiles.directory(dir), tp);
        } catch (ConfigException e) {
            // named under the setting, as a refused GPU file's rows are: "deployment.profile: /x/tp1/dense.csv: ..."
            throw new ConfigException(e.problems().stream()
                    .map(p -> new ConfigException.Problem(path + ": " + p.path(), p.message())).toList());
        }
        checkApplies(profile, model, gpu, gpus, path);
        return layered(profile, model, gpu, dir.toString(), path);
    }

    private static void checkApplies(LayerProfile profile, ModelArchitecture model, GpuSpec gpu, GpuCatalog gpus,
                                     String path) {
        String measuredOn = gpus.find(profile.hardware()).map(GpuSpec::name).orElse(profile.hardware());
        if (!measuredOn.equalsIgnoreCase(gpu.name())) {
            throw new ConfigException(path, "measured on " + profile.hardware() + " (" + profile.where() + " hardware), but"
                    + " the run's GPU is " + gpu.name() + ": a profile's kernel times hold for the GPU they were measured"
                    + " on; use a profile of " + gpu.name() + " or the roofline");
        }
        if (model == null) {
            return; // layered() refuses it, naming what is missing
        }
        Optional<ModelArchitecture> profiled = ModelCatalog.builtIn().find(profile.model())
                .map(e -> ModelCatalog.builtIn().architecture(e, path));
        boolean same = profiled.map(p -> sameLayers(p, model))
                .orElse(profile.architecture().equalsIgnoreCase(model.modelType()));
        if (!same) {
            throw new ConfigException(path, "measured for " + profile.model() + " (" + profile.where() + " model, "
                    + profile.architecture() + "), whose layers are not those of the served " + model.name() + " ("
                    + model.modelType() + "): a profile's per-layer times hold for one layer shape; use a profile of this"
                    + " model or the roofline");
        }
    }

    /**
     * Whether one decoder layer of {@code a} runs the kernels of one of {@code b}'s: the same model type, width,
     * attention, feed-forward and dtypes. The layer count may differ (it scales the tables), and the vocabulary (the LM
     * head's row is per sequence, measured with the profile's).
     */
    static boolean sameLayers(ModelArchitecture a, ModelArchitecture b) {
        return a.modelType().equals(b.modelType()) && a.hiddenSize() == b.hiddenSize() && a.attention().equals(b.attention())
                && a.feedForward().equals(b.feedForward()) && a.dtypeBytes() == b.dtypeBytes();
    }

    /** "model on GPUs (id)" for every bundled profile. */
    public List<String> available() {
        List<String> out = new ArrayList<>();
        for (Entry e : entries) {
            out.add(String.join(", ", e.models().values()) + " on " + String.join(", ", e.hardware().values())
                    + " (" + e.id() + ")");
        }
        return out;
    }

    private static LatencyModel layered(LayerProfile profile, ModelArchitecture model, GpuSpec gpu, String label, String path) {
        if (model == null) {
            throw new ConfigException(path, "the per-layer profile needs the model's architecture (num_hidden_layers): "
                    + "a bundled model id or the path of a config.json");
        }
        ProfileArchitecture sequence = ProfileArchitecture.of(profile.architecture(), profile.where() + " architecture");
        return new ProfiledModel(profile, sequence, model, gpu, label);
    }

    private static String canonicalModel(String id) {
        return ModelCatalog.builtIn().find(id).map(ModelCatalog.Entry::id).orElse(id.trim().toLowerCase(Locale.ROOT));
    }

    private static ProfileCatalog load() {
        List<Entry> entries = new ArrayList<>();
        for (JsonNode n : Resources.yaml("profiles/index.yaml").path("profiles")) {
            String id = Resources.text(n, "id", "profiles/index.yaml");
            String where = "profiles/index.yaml " + id;
            String format = Resources.text(n, "format", where);
            Map<String, String> models = new LinkedHashMap<>();
            Map<String, String> hardware = new LinkedHashMap<>();
            if (format.equals("llmservingsim")) {
                models.put(Resources.text(n, "model", where), Resources.text(n, "model", where));
                hardware.put(Resources.text(n, "hardware", where), Resources.text(n, "hardware", where));
            } else if (format.equals("splitwise")) {
                n.path("models").fields().forEachRemaining(f -> models.put(f.getKey(), f.getValue().asText()));
                n.path("hardware").fields().forEachRemaining(f -> hardware.put(f.getKey(), f.getValue().asText()));
            } else {
                throw new IllegalStateException(where + ": unknown format " + format);
            }
            hardware.replaceAll((k, gpu) -> GpuCatalog.builtIn().find(gpu)
                    .orElseThrow(() -> new IllegalStateException(where + ": unknown GPU " + gpu)).name());
            entries.add(new Entry(id, format, Resources.text(n, "folder", where), models, hardware));
        }
        return new ProfileCatalog(entries);
    }
}
