package io.servesim.latency;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.config.ConfigException;
import io.servesim.config.ConfigNode;
import io.servesim.config.ReadFailure;
import io.servesim.config.StrictJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The GPU types servesim knows, loaded from the bundled {@code io/servesim/latency/gpus.yaml}
 * (sources per entry in that file), plus, for one run, the rows of a user's file in the same format
 * ({@code deployment.gpus: FILE}, {@link #withFile}): a GPU servesim does not bundle, given by its
 * datasheet numbers only. Names and aliases match case-insensitively, with spaces and
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

    /**
     * This catalog with the rows of {@code file} ({@link GpuTable}'s format, that of the bundled
     * {@code gpus.yaml}) added. A row may not take the name or an alias of a GPU already known (a bundled
     * row's numbers are what its measurements were fitted with), nor repeat another row's.
     *
     * @param configPath the key or flag that named the file ({@code deployment.gpus}, {@code --gpus}), the
     *                   prefix of every problem's path
     * @throws ConfigException naming the file, the row and the key of every problem
     */
    public GpuCatalog withFile(Path file, String configPath) {
        JsonNode root;
        try {
            root = StrictJson.yaml().readTree(Files.readAllBytes(file));
        } catch (IOException e) {
            ConfigException.Problem p = ReadFailure.problem(e, file);
            throw new ConfigException(configPath + ": " + p.path(), p.message());
        }
        String prefix = configPath + ": " + file + " ";
        List<GpuSpec> added = GpuTable.read(root, prefix);
        List<ConfigException.Problem> problems = new ArrayList<>();
        Map<String, GpuSpec> keys = new HashMap<>(byKey);
        for (int i = 0; i < added.size(); i++) {
            GpuSpec gpu = added.get(i);
            List<String> names = new ArrayList<>(List.of(gpu.name()));
            names.addAll(gpu.aliases());
            for (int j = 0; j < names.size(); j++) {
                GpuSpec taken = keys.putIfAbsent(Resources.key(names.get(j)), gpu);
                if (taken != null && taken != gpu) {
                    problems.add(new ConfigException.Problem(prefix + "gpus[" + i + "]." + (j == 0 ? "name" : "aliases[" + (j - 1) + "]"),
                            "'" + names.get(j) + "' already names " + taken.name() + (gpus.contains(taken) ? " (bundled)" : "")
                                    + "; give the row a name of its own"));
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        List<GpuSpec> all = new ArrayList<>(gpus);
        all.addAll(added);
        return new GpuCatalog(all);
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
                        + " (aliases such as H100-SXM, A100-80, 4090, RTX-PRO-6000 are accepted; add a GPU with"
                        + " deployment.gpus: FILE (--gpus FILE), rows in gpus.yaml's format)"));
    }

    /**
     * Records on {@code node} (at its {@code hardware} key) the problem of a GPU name {@code catalog} does not know,
     * so that a binder reports it with the config's other problems; a null name is not checked.
     */
    public static void checkName(GpuCatalog catalog, String nameOrAlias, ConfigNode node) {
        if (nameOrAlias != null && catalog.find(nameOrAlias).isEmpty()) {
            try {
                catalog.lookup(nameOrAlias, node.pathOf("hardware"));
            } catch (ConfigException e) {
                node.problems(e);
            }
        }
    }

    /** The price of the GPU called {@code nameOrAlias}; {@link GpuSpec.Price#NONE} when unknown or unpriced. */
    public GpuSpec.Price price(String nameOrAlias) {
        return find(nameOrAlias).map(GpuSpec::price).orElse(GpuSpec.Price.NONE);
    }

    /** Canonical names of the GPUs with a price, in catalog order. */
    public List<String> pricedNames() {
        return gpus.stream().filter(g -> g.price().known()).map(GpuSpec::name).toList();
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
        List<GpuSpec> gpus = GpuTable.read(Resources.yaml("gpus.yaml"), "gpus.yaml ");
        if (gpus.isEmpty()) {
            throw new IllegalStateException("gpus.yaml lists no GPUs");
        }
        return new GpuCatalog(gpus);
    }
}
