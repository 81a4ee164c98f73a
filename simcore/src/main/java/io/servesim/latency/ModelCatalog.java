package io.servesim.latency;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The model architectures bundled with servesim: Hugging Face {@code config.json} files under
 * {@code io/servesim/latency/models/}, indexed by {@code models.yaml} (id, file, aliases, source;
 * the configs come from inference-sim/inference-sim {@code model_configs/}, Apache-2.0).
 *
 * <p>Lookups are case-insensitive and accept the Hugging Face id ({@code Qwen/Qwen3-14B}), an alias
 * listed in the index ({@code meta-llama/llama-3.1-8b} for the instruct model's architecture) or the
 * bare file stem ({@code llama-3.1-8b-instruct}). {@link #read(Path, String)} loads any other
 * {@code config.json}.
 */
public final class ModelCatalog {
    private static final ModelCatalog BUILT_IN = load();

    /**
     * One bundled model.
     *
     * @param id      lower-case Hugging Face id
     * @param file    resource name under {@code models/}
     * @param aliases other accepted ids
     * @param source  where the config comes from
     */
    public record Entry(String id, String file, List<String> aliases, String source) {
        private static final String HUB = "https://huggingface.co/";

        public Entry {
            aliases = List.copyOf(aliases);
        }

        /**
         * The id as the Hugging Face Hub spells it ({@code meta-llama/Llama-3.1-8B-Instruct}), read from the source
         * URL; empty when the source is not the model's Hub page.
         */
        public Optional<String> hubId() {
            if (!source.startsWith(HUB)) {
                return Optional.empty();
            }
            String repo = source.substring(HUB.length());
            return repo.equalsIgnoreCase(id) ? Optional.of(repo) : Optional.empty();
        }
    }

    private final List<Entry> entries;
    private final Map<String, Entry> byKey;
    /** Parsed bundled configs: a sweep resolves the same model once per cell, from any thread. */
    private final Map<Entry, ModelArchitecture> parsed = new ConcurrentHashMap<>();

    private ModelCatalog(List<Entry> entries) {
        this.entries = List.copyOf(entries);
        Map<String, Entry> keys = new HashMap<>();
        for (Entry e : entries) {
            register(keys, e.id(), e);
            register(keys, e.file().replaceFirst("\\.config\\.json$", ""), e);
            for (String alias : e.aliases()) {
                register(keys, alias, e);
            }
        }
        this.byKey = Map.copyOf(keys);
    }

    /** The catalog bundled with servesim (immutable, loaded once). */
    public static ModelCatalog builtIn() {
        return BUILT_IN;
    }

    /** The entry for a model id, alias or file stem, if bundled. */
    public Optional<Entry> find(String idOrStem) {
        return idOrStem == null ? Optional.empty() : Optional.ofNullable(byKey.get(Resources.key(idOrStem)));
    }

    /**
     * The architecture of a bundled model.
     *
     * @param path config path of the model id, for errors
     * @throws ConfigException naming {@code path} and listing the bundled ids when unknown
     */
    public ModelArchitecture lookup(String idOrStem, String path) {
        Entry e = find(idOrStem).orElseThrow(() -> new ConfigException(path,
                "unknown model '" + idOrStem + "'; bundled: " + String.join(", ", ids())
                        + " (or give the path of a config.json)"));
        return architecture(e, path);
    }

    /** The architecture of a bundled entry (parsed once; bundled configs are valid, so {@code path} never shows). */
    public ModelArchitecture architecture(Entry e, String path) {
        return parsed.computeIfAbsent(e, entry -> HfConfig.parse(Resources.json("models/" + entry.file()), entry.id(), path,
                Resources.BASE + "models/" + entry.file()));
    }

    /** Reads any Hugging Face {@code config.json}; {@code path} is the config path that named it. */
    public static ModelArchitecture read(Path configJson, String path) {
        return HfConfig.read(configJson, path);
    }

    /** Bundled ids in index order. */
    public List<String> ids() {
        List<String> ids = new ArrayList<>(entries.size());
        for (Entry e : entries) {
            ids.add(e.id());
        }
        return ids;
    }

    private static void register(Map<String, Entry> keys, String name, Entry e) {
        Entry previous = keys.put(Resources.key(name), e);
        if (previous != null && previous != e) {
            throw new IllegalStateException("models.yaml: '" + name + "' names both " + previous.id() + " and " + e.id());
        }
    }

    private static ModelCatalog load() {
        List<Entry> entries = new ArrayList<>();
        for (JsonNode n : Resources.yaml("models.yaml").path("models")) {
            String id = Resources.text(n, "id", "models.yaml").toLowerCase(Locale.ROOT);
            List<String> aliases = new ArrayList<>();
            for (JsonNode a : n.path("aliases")) {
                aliases.add(a.asText().toLowerCase(Locale.ROOT));
            }
            entries.add(new Entry(id, Resources.text(n, "file", "models.yaml " + id), aliases,
                    Resources.text(n, "source", "models.yaml " + id)));
        }
        if (entries.isEmpty()) {
            throw new IllegalStateException("models.yaml lists no models");
        }
        return new ModelCatalog(entries);
    }
}
