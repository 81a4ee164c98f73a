package io.servesim.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A sweep's output folder as {@link OutputDir} checks it: the datasets ({@code cells/}, {@code requests/}, ...) are
 * its data, {@code _SWEEP.yaml} its definition, identified by the cell ids it lists (a hash of each cell's resolved
 * config and seed), and a staging folder holds the sidecars, the datasets and the finished cells' checkpoints.
 */
final class SweepLayout implements OutputLayout {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final List<String> DATASETS = Arrays.stream(Dataset.values()).map(Dataset::directory).toList();

    private final SweepPlan plan;

    SweepLayout(SweepPlan plan) {
        this.plan = plan;
    }

    @Override
    public String noun() {
        return "sweep";
    }

    @Override
    public String identityNoun() {
        return "grid";
    }

    @Override
    public String definitionFile() {
        return SweepSidecars.SWEEP;
    }

    @Override
    public Set<String> reservedFiles() {
        return Set.of(SweepSidecars.SUMMARY);
    }

    @Override
    public List<String> dataFolders() {
        return DATASETS;
    }

    /** The sidecars, the checkpoints of the staged cells and the datasets. */
    @Override
    public boolean isStagingFile(String rel, Set<String> stagedIds) {
        String top = rel.contains("/") ? rel.substring(0, rel.indexOf('/')) : rel;
        if (top.equals(Checkpoint.DIRECTORY)) {
            return Checkpoint.isItsFile(rel.substring(top.length() + 1), stagedIds);
        }
        return top.equals(SweepSidecars.SWEEP) || top.equals(SweepSidecars.SUMMARY)
                || (rel.contains("/") && DATASETS.contains(top));
    }

    @Override
    public Optional<Set<String>> ids(Path folder) {
        return sweepIds(folder);
    }

    @Override
    public Set<String> idsNow() {
        Set<String> ids = new HashSet<>();
        plan.cells().forEach(c -> ids.add(c.cellId()));
        return ids;
    }

    @Override
    public int finished(Path staging) {
        return Checkpoint.count(staging);
    }

    @Override
    public String progress(Path staging, Set<String> stagedIds) {
        return Checkpoint.count(staging) + " of " + stagedIds.size() + " cells finished";
    }

    @Override
    public String difference(Path staging) throws IOException {
        Set<String> then = sweepIds(staging).orElse(Set.of());
        return then.size() + " cells then, " + plan.cells().size() + " now; " + GridDifference.describe(
                YAML.readTree(staging.resolve(SweepSidecars.SWEEP).toFile()), SweepSidecars.sweep(plan));
    }

    /**
     * Refuses to resume when the sweep file now asks for other datasets than the interrupted sweep wrote (say
     * {@code outputs.requests} turned off, or {@code decisions} on): the finished cells' kept rows hold the datasets
     * of then, so the resumed datasets would miss rows or hold rows of a dataset no longer written. A staged
     * {@code _SWEEP.yaml} without an entry (written before it was recorded) is not compared on it.
     */
    @Override
    public void checkResume(Path staging) throws IOException {
        JsonNode then = YAML.readTree(staging.resolve(SweepSidecars.SWEEP).toFile()).path("outputs");
        JsonNode now = SweepSidecars.outputs(plan.spec().outputs());
        List<String> differ = new ArrayList<>();
        now.fieldNames().forEachRemaining(k -> {
            if (then.has(k) && !then.get(k).asText().equals(now.get(k).asText())) {
                differ.add(k + ": " + then.get(k).asText() + " then, " + now.get(k).asText() + " now");
            }
        });
        if (!differ.isEmpty()) {
            throw new OutputDir.RefusedException("cannot resume: the interrupted sweep in " + staging + " wrote other outputs ("
                    + String.join("; ", differ) + "), and its finished cells' rows hold those datasets; restore the sweep"
                    + " file's outputs: to resume, or --overwrite discards it");
        }
    }

    /**
     * Also the same rows' layout: the axis columns in order and the cells in index order. The same cells under axes
     * listed in another order are other columns and other cell indices, which the kept rows of the one could not hold.
     */
    @Override
    public boolean describesNow(Path folder) {
        return OutputLayout.super.describesNow(folder) && rowLayout(folder).map(rowLayoutNow()::equals).orElse(false);
    }

    /** The axis names, then the cell ids in index order, of the output asked for now. */
    private List<String> rowLayoutNow() {
        List<String> layout = new ArrayList<>();
        plan.spec().axes().forEach(a -> layout.add(a.name()));
        plan.cells().forEach(c -> layout.add(c.cellId()));
        return layout;
    }

    /** The axis names, then the cell ids in index order, of the {@code _SWEEP.yaml} in {@code dir}, if readable. */
    private static Optional<List<String>> rowLayout(Path dir) {
        try {
            JsonNode sweep = YAML.readTree(dir.resolve(SweepSidecars.SWEEP).toFile());
            List<String> layout = new ArrayList<>();
            sweep.path("axes").forEach(a -> layout.add(a.path("name").asText()));
            sweep.path("cells").forEach(c -> layout.add(c.path("cell_id").asText()));
            return Optional.of(layout);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The cell ids of the {@code _SWEEP.yaml} in {@code dir}, if it is a readable servesim sweep file. */
    static Optional<Set<String>> sweepIds(Path dir) {
        Path f = dir.resolve(SweepSidecars.SWEEP);
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        try {
            JsonNode cells = YAML.readTree(f.toFile()).path("cells");
            if (!cells.isArray()) {
                return Optional.empty();
            }
            Set<String> ids = new HashSet<>();
            cells.forEach(c -> ids.add(c.path("cell_id").asText()));
            return Optional.of(ids);
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
