package io.servesim.sweep;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.UUID;

/**
 * The files written beside the datasets: {@code _SWEEP.yaml}, the resolved sweep (base config
 * inlined, seeds expanded, every cell with its id, axis labels and seed) so a result directory says
 * exactly what produced it; and {@code _SUMMARY.json}, the run's outcome and wall-clock timings
 * (kept out of the Parquet rows so those stay reproducible). Each is written under a temporary
 * name and renamed into place, so an interrupted write leaves the file whole or absent: a cut
 * {@code _SWEEP.yaml} in a staging folder made the next run take the folder for someone else's.
 */
final class SweepSidecars {
    static final String SWEEP = "_SWEEP.yaml";
    static final String SUMMARY = "_SUMMARY.json";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SweepSidecars() {
    }

    static void writeSweep(Path outDir, SweepPlan plan) throws IOException {
        writeWhole(YAML, outDir.resolve(SWEEP), sweep(plan));
    }

    /** The content of {@code _SWEEP.yaml}: the sweep as resolved, and every cell with its id, axis labels and seed. */
    static ObjectNode sweep(SweepPlan plan) {
        SweepSpec spec = plan.spec();
        ObjectNode root = YAML.createObjectNode();
        root.put("name", spec.name());
        root.put("base_dir", spec.baseDir().toString());
        root.set("base", spec.base());
        ArrayNode axes = root.putArray("axes");
        for (Axis axis : spec.axes()) {
            ObjectNode a = axes.addObject();
            a.put("name", axis.name());
            ObjectNode values = a.putObject("values");
            axis.values().forEach(v -> {
                ObjectNode set = values.putObject(v.label());
                v.assignments().forEach(set::set);
            });
        }
        root.set("zip", YAML.valueToTree(spec.zip()));
        root.set("seeds", YAML.valueToTree(spec.seeds()));
        root.set("outputs", outputs(spec.outputs()));
        ArrayNode cells = root.putArray("cells");
        for (Cell c : plan.cells()) {
            ObjectNode cell = cells.addObject();
            cell.put("index", c.index());
            cell.put("cell_id", c.cellId());
            ObjectNode labels = cell.putObject("axes");
            c.axes().forEach(l -> labels.put(l.axis(), l.label()));
            cell.put("seed", c.seed());
        }
        return root;
    }

    /**
     * The {@code outputs} entry of {@code _SWEEP.yaml}: which datasets the sweep writes. A resume compares it with the
     * interrupted sweep's ({@link OutputDir}), as a finished cell's kept rows hold exactly these datasets.
     */
    static ObjectNode outputs(SweepOutputs o) {
        ObjectNode outputs = YAML.createObjectNode();
        outputs.put("requests", o.requests());
        outputs.put("sessions", o.sessions());
        outputs.put("decisions", o.trace().level().key());
        outputs.put("counterfactual_k", o.trace().counterfactualK());
        outputs.put("scaling", o.scaling());
        return outputs;
    }

    static void writeSummary(Path outDir, Map<String, Object> summary) throws IOException {
        writeWhole(JSON, outDir.resolve(SUMMARY), summary);
    }

    /** Writes {@code value} to {@code file} through a temporary file in the same folder, renamed into place. */
    private static void writeWhole(ObjectMapper mapper, Path file, Object value) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + "." + UUID.randomUUID() + ".tmp");
        try {
            mapper.writeValue(tmp.toFile(), value);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
