package io.servesim.latency;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The GPU types servesim knows, loaded from the bundled {@code io/servesim/latency/gpus.yaml}
 * (sources per entry in that file). Names and aliases match case-insensitively, with spaces and
 * underscores read as '-': {@code "H100-SXM"}, {@code "a100_80"} and
 * {@code "NVIDIA RTX PRO 6000 Blackwell Server Edition"} all resolve.
 */
public final class GpuCatalog {
    private static final GpuCatalog BUILT_IN = load();

    private final List<GpuSpec> gpus;
    private final Map<String, GpuSpec> byKey;

    private GpuCatalog(List<GpuSpec> gpus) {
        this.gpus = List.copyOf(gpus);
        Map<String, GpuSpec> keys = new HashMap<>();
        for (GpuSpec gpu : gpus) {
            register(keys, gpu.name(), gpu);
            for (String alias : gpu.aliases()) {
                register(keys, alias, gpu);
            }
        }
        this.byKey = Map.copyOf(keys);
    }

    /** The catalog bundled with servesim (immutable, loaded once). */
    public static GpuCatalog builtIn() {
        return BUILT_IN;
    }

    /** The GPU called {@code nameOrAlias}, if known. */
    public Optional<GpuSpec> find(String nameOrAlias) {
        return nameOrAlias == null ? Optional.empty() : Optional.ofNullable(byKey.get(Resources.key(nameOrAlias)));
    }

    /**
     * The GPU called {@code nameOrAlias}.
     *
     * @param path config path of the value, for the error
     * @throws ConfigException naming {@code path} and listing the canonical names when unknown
     */
    public GpuSpec lookup(String nameOrAlias, String path) {
        return find(nameOrAlias).orElseThrow(() -> new ConfigException(path,
                "unknown GPU '" + nameOrAlias + "'; known: " + String.join(", ", names())
                        + " (aliases such as H100-SXM, A100-80, 4090, RTX-PRO-6000 are accepted)"));
    }

    /** Canonical names in catalog order. */
    public List<String> names() {
        List<String> names = new ArrayList<>(gpus.size());
        for (GpuSpec gpu : gpus) {
            names.add(gpu.name());
        }
        return names;
    }

    private static void register(Map<String, GpuSpec> keys, String name, GpuSpec gpu) {
        GpuSpec previous = keys.put(Resources.key(name), gpu);
        if (previous != null && previous != gpu) {
            throw new IllegalStateException("gpus.yaml: '" + name + "' names both " + previous.name() + " and " + gpu.name());
        }
    }

    private static GpuCatalog load() {
        List<GpuSpec> gpus = new ArrayList<>();
        for (JsonNode n : Resources.yaml("gpus.yaml").path("gpus")) {
            String name = Resources.text(n, "name", "gpus.yaml");
            String where = "gpus.yaml " + name;
            List<String> aliases = new ArrayList<>();
            for (JsonNode a : n.path("aliases")) {
                aliases.add(a.asText());
            }
            gpus.add(new GpuSpec(name, aliases,
                    Resources.number(n, "bf16_tflops", where),
                    Resources.number(n, "fp8_tflops", where),
                    Resources.number(n, "memory_bandwidth_tbps", where),
                    Resources.number(n, "memory_gib", where),
                    (int) Resources.number(n, "sm_count", where),
                    Resources.number(n, "all_reduce_gbps", where),
                    Resources.number(n, "host_link_gbps", where),
                    Resources.text(n, "source", where)));
        }
        if (gpus.isEmpty()) {
            throw new IllegalStateException("gpus.yaml lists no GPUs");
        }
        return new GpuCatalog(gpus);
    }
}
