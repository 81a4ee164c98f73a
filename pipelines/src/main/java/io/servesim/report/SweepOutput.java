package io.servesim.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.servesim.compare.CompareJob;
import io.servesim.exit.UsageException;
import io.servesim.sweep.Dataset;
import io.servesim.sweep.RoundsJob;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A finished sweep's output directory, as the report reads it: the axes from {@code _SWEEP.yaml}, the
 * sidecars' text, and which datasets hold Parquet files. A directory without {@code _SUCCESS},
 * {@code _SWEEP.yaml} or {@code cells/} Parquet is not a complete sweep output: a {@link UsageException}
 * naming {@code OUT_DIR} and what is missing.
 *
 * @param dir          the output directory (absolute)
 * @param name         the sweep's name
 * @param axes         its axes, in the sweep file's order
 * @param cells        the number of cells (axis combinations x seeds)
 * @param sweepYaml    {@code _SWEEP.yaml} without its per-cell list (the result table shows the cells)
 * @param summaryJson  {@code _SUMMARY.json}, or empty when absent
 */
record SweepOutput(Path dir, String name, List<SweepAxis> axes, int cells, String sweepYaml, String summaryJson) {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /**
     * Checks that {@code dir}, the command's {@code OUT_DIR}, is a folder (not a file, not missing) and not the output
     * folder of a capacity plan or a policy search ({@link RoundsJob}).
     */
    static void checkFolder(Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        if (Files.exists(abs) && !Files.isDirectory(abs)) {
            throw new UsageException("OUT_DIR " + dir + ": is a file; OUT_DIR must be a sweep output folder (the folder"
                    + " a sweep wrote, holding _SUCCESS, _SWEEP.yaml and cells/)");
        }
        if (!Files.isDirectory(abs)) {
            throw new UsageException("OUT_DIR " + dir + ": no such directory");
        }
        RoundsJob.refuseAsOutDir(dir);
    }

    /** Reads {@code dir}, named by the command's {@code OUT_DIR} parameter. */
    static SweepOutput open(Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        checkFolder(dir);
        if (!Files.isRegularFile(abs.resolve("_SUCCESS"))) {
            throw new UsageException("OUT_DIR " + dir + ": not a complete servesim sweep output (no _SUCCESS; a sweep writes"
                    + " it last when it succeeds, and an interrupted one is finished with sweep --resume)");
        }
        if (!Files.isRegularFile(abs.resolve("_SWEEP.yaml"))) {
            throw new UsageException("OUT_DIR " + dir + ": not a servesim sweep output (no _SWEEP.yaml, the resolved sweep"
                    + " a sweep writes beside its datasets)");
        }
        if (!Duck.hasParquet(abs.resolve(Dataset.CELLS.directory()))) {
            throw new UsageException("OUT_DIR " + dir + ": not a servesim sweep output (no cells/*.parquet)");
        }
        try {
            JsonNode sweep = YAML.readTree(abs.resolve("_SWEEP.yaml").toFile());
            List<SweepAxis> axes = new ArrayList<>();
            for (JsonNode a : sweep.path("axes")) {
                List<String> labels = new ArrayList<>();
                Set<String> paths = new LinkedHashSet<>();
                a.path("values").fields().forEachRemaining(v -> {
                    labels.add(v.getKey());
                    v.getValue().fieldNames().forEachRemaining(paths::add);
                });
                axes.add(new SweepAxis(a.path("name").asText(), List.copyOf(labels), paths));
            }
            int cells = sweep.path("cells").size();
            if (sweep instanceof ObjectNode o) {
                o.remove("cells");
            }
            String yaml = YAML.writeValueAsString(sweep) + "# cells: " + cells + " (one row each in cells/; see the table)\n";
            Path summary = abs.resolve("_SUMMARY.json");
            String summaryJson = Files.isRegularFile(summary) ? Files.readString(summary) : "";
            return new SweepOutput(abs, sweep.path("name").asText(abs.getFileName().toString()), List.copyOf(axes), cells,
                    yaml, summaryJson);
        } catch (IOException e) {
            throw new UsageException("OUT_DIR " + dir + ": cannot read _SWEEP.yaml: " + e.getMessage());
        }
    }

    /** The folder of {@code dataset}. */
    Path path(Dataset dataset) {
        return dir.resolve(dataset.directory());
    }

    /** The folder where {@code servesim compare} writes its comparison of the cells with measurements: {@code compare/}. */
    Path compareFolder() {
        return CompareJob.defaultOutput(path(Dataset.CELLS));
    }

    /** The folders that hold its data, which the report reads: each dataset's, then {@link #compareFolder}. */
    List<Path> dataFolders() {
        List<Path> folders = new ArrayList<>(Arrays.stream(Dataset.values()).map(this::path).toList());
        folders.add(compareFolder());
        return folders;
    }

    /** Whether {@code dataset} was written (it has Parquet files; it may still hold no rows). */
    boolean has(Dataset dataset) {
        return Duck.hasParquet(path(dataset));
    }

    /** The axis named {@code name}. */
    SweepAxis axis(String name) {
        return axes.stream().filter(a -> a.name().equals(name)).findFirst().orElseThrow();
    }

    /** The axis names, in order. */
    List<String> axisNames() {
        return axes.stream().map(SweepAxis::name).toList();
    }
}
