package io.servesim.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.servesim.exit.UsageException;
import io.servesim.io.OutputLock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a sweep output directory holds before a sweep writes into it, and whether it may: the
 * sweep's safety check, made before any cell runs. servesim only ever deletes files one of its
 * manifests ({@link OutputManifest}) lists; everything else in the directory is the user's.
 *
 * <p>The rules, in order:
 * <ol>
 *   <li>A file of the user's inside a dataset directory ({@code cells/}, {@code requests/}, ...)
 *       would be read as part of the dataset: always refused, even with {@code --overwrite}. So is one in
 *       {@code _staging/} (deleted whole when a sweep commits) or under a name a sweep writes at the top
 *       ({@code _SUCCESS}, {@code _INCOMPLETE}, {@code _SWEEP.yaml}, {@code _SUMMARY.json}) that no manifest lists:
 *       the sweep would have to delete or replace it. The writer's {@link OutputLock} file is servesim's.</li>
 *   <li>An interrupted sweep ({@code _staging/}) is finished with {@code --resume} (same grid
 *       and outputs only) or discarded with {@code --overwrite}; with neither, the sweep is refused, unless
 *       no cell of it had finished (then nothing computed is lost by starting over).</li>
 *   <li>Results of a sweep of the same grid (same cell ids) are replaced once the new sweep has
 *       succeeded; results of another grid, or any other non-empty directory, only with
 *       {@code --overwrite}, which still keeps every file servesim did not write.</li>
 * </ol>
 */
final class OutputDir {
    /** The staging folder under the output directory: the running or interrupted sweep. */
    static final String STAGING = "_staging";

    /**
     * The temporary file {@code _SWEEP.yaml} is written under in the staging folder
     * ({@link SweepSidecars}): an interruption before its rename leaves it alone there, and it is
     * servesim's, not a foreign file (the staging folder is removed whole when a sweep commits).
     */
    private static final Pattern SWEEP_BEING_WRITTEN = Pattern.compile(
            Pattern.quote(STAGING + "/." + SweepSidecars.SWEEP + ".") + "[0-9a-f-]{36}\\.tmp");
    /** Names a sweep writes at the top of its output folder: a file of the user's under one of them is never replaced. */
    private static final Set<String> RESERVED = Set.of(OutputManifest.Marker.SUCCESS.file,
            OutputManifest.Marker.INCOMPLETE.file, SweepSidecars.SWEEP, SweepSidecars.SUMMARY);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final int LISTED = 5;

    private OutputDir() {
    }

    /** How the sweep may proceed. */
    enum Mode {
        /** Start a new sweep (earlier results, if any, are replaced when it succeeds). */
        FRESH,
        /** Finish the interrupted sweep in {@code _staging/}. */
        RESUME,
        /** {@code --resume} on a directory that already holds this grid's complete results. */
        ALREADY_COMPLETE
    }

    /**
     * The check's verdict.
     *
     * @param dir           the output directory
     * @param mode          how to proceed
     * @param ownedFiles    files of an earlier sweep that the commit may delete (relative to {@code dir})
     * @param discardStaging whether an interrupted sweep's staging folder is to be discarded first
     * @param previousComplete whether {@code dir} holds complete earlier results ({@code _SUCCESS})
     */
    record Verdict(Path dir, Mode mode, Set<String> ownedFiles, boolean discardStaging, boolean previousComplete) {
        Path staging() {
            return dir.resolve(STAGING);
        }
    }

    /** The directory may not be used as asked; the message says why and what to do (exit 2). */
    static final class RefusedException extends UsageException {
        private static final long serialVersionUID = 1L;

        RefusedException(String message) {
            super(message);
        }
    }

    /** Inspects {@code dir} for a sweep of {@code plan}'s cells under the user's flags. */
    static Verdict inspect(Path dir, SweepPlan plan, boolean overwrite, boolean resume) throws IOException {
        if (overwrite && resume) {
            throw new RefusedException("--overwrite and --resume exclude each other: --resume finishes the interrupted sweep,"
                    + " --overwrite discards it");
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new RefusedException("sweep output " + dir + " is a file, not a directory; choose another --output");
        }
        if (!Files.exists(dir)) {
            if (resume) {
                throw new RefusedException("nothing to resume: " + dir + " does not exist");
            }
            return new Verdict(dir, Mode.FRESH, Set.of(), false, false);
        }
        Set<String> gridIds = cellIds(plan);
        Optional<OutputManifest> success = OutputManifest.read(dir, OutputManifest.Marker.SUCCESS);
        Optional<OutputManifest> incomplete = OutputManifest.read(dir, OutputManifest.Marker.INCOMPLETE);
        Set<String> owned = new HashSet<>();
        success.ifPresent(m -> owned.addAll(m.files()));
        incomplete.ifPresent(m -> owned.addAll(m.files()));
        success.ifPresent(m -> owned.add(m.marker().file));
        incomplete.ifPresent(m -> owned.add(m.marker().file));

        Path staging = dir.resolve(STAGING);
        Optional<Set<String>> stagedGrid = Files.isDirectory(staging) ? sweepIds(staging) : Optional.empty();
        List<String> foreignInDatasets = new ArrayList<>();
        List<String> foreignInStaging = new ArrayList<>();
        List<String> foreignReserved = new ArrayList<>();
        List<String> foreignElsewhere = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) walk.filter(p -> !Files.isDirectory(p))::iterator) {
                String rel = dir.relativize(f).toString().replace('\\', '/');
                boolean inStaging = rel.startsWith(STAGING + "/");
                if (owned.contains(rel) || rel.equals(OutputLock.FILE) || SWEEP_BEING_WRITTEN.matcher(rel).matches()
                        || (inStaging && stagedGrid.isPresent() && isStagingFile(rel.substring(STAGING.length() + 1)))) {
                    continue;
                }
                (isDatasetFile(rel) ? foreignInDatasets : inStaging ? foreignInStaging
                        : RESERVED.contains(rel) ? foreignReserved : foreignElsewhere).add(rel);
            }
        }
        if (!foreignInDatasets.isEmpty()) {
            throw new RefusedException("sweep output " + dir + " has files servesim did not write inside its dataset folders ("
                    + list(foreignInDatasets) + "); they would be read as part of the datasets, and servesim never deletes"
                    + " a file it did not write: move them away or choose another --output");
        }
        if (!foreignInStaging.isEmpty()) {
            throw new RefusedException("sweep output " + dir + " has files servesim did not write in " + STAGING + "/ ("
                    + list(foreignInStaging) + "), the folder a sweep runs in and deletes whole when it commits, and servesim"
                    + " never deletes a file it did not write: move them away or choose another --output");
        }
        if (!foreignReserved.isEmpty()) {
            throw new RefusedException("sweep output " + dir + " holds " + list(foreignReserved) + ", which no servesim"
                    + " manifest lists, under names a sweep writes; servesim never replaces a file it did not write: move"
                    + " them away or choose another --output");
        }
        if (stagedGrid.isPresent()) {
            if (resume) {
                if (!stagedGrid.get().equals(gridIds)) {
                    throw new RefusedException("cannot resume: the interrupted sweep in " + staging + " is of another grid ("
                            + stagedGrid.get().size() + " cells then, " + gridIds.size() + " now; " + GridDifference.describe(
                                    YAML.readTree(staging.resolve(SweepSidecars.SWEEP).toFile()), SweepSidecars.sweep(plan))
                            + "); --overwrite discards it");
                }
                refuseOtherOutputs(staging, plan);
                return new Verdict(dir, Mode.RESUME, owned, false, success.isPresent());
            }
            if (!overwrite && Checkpoint.count(staging) > 0) {
                boolean sameGrid = stagedGrid.get().equals(gridIds);
                throw new RefusedException(dir + " holds an interrupted sweep" + (sameGrid ? "" : " of another grid") + " ("
                        + Checkpoint.count(staging) + " of " + stagedGrid.get().size() + " cells finished, in " + staging + "): "
                        + (sameGrid ? "--resume finishes it, --overwrite discards it"
                                : "choose another --output, or --overwrite to discard it"));
            }
        } else if (resume) {
            if (success.isPresent() && sweepIds(dir).map(gridIds::equals).orElse(false)) {
                return new Verdict(dir, Mode.ALREADY_COMPLETE, owned, false, true);
            }
            throw new RefusedException("nothing to resume in " + dir + ": it holds no interrupted sweep (no " + STAGING + "/)");
        }
        boolean ownedSweep = !owned.isEmpty() && owned.contains(SweepSidecars.SWEEP);
        boolean sameGrid = ownedSweep && sweepIds(dir).map(gridIds::equals).orElse(false);
        if (!overwrite && !sameGrid) {
            if (ownedSweep) {
                throw new RefusedException(dir + " holds the results of another sweep grid (see " + dir.resolve(SweepSidecars.SWEEP)
                        + "); choose another --output, or --overwrite to replace them (only the files its "
                        + OutputManifest.Marker.SUCCESS.file + " lists are deleted)");
            }
            if (!foreignElsewhere.isEmpty()) {
                throw new RefusedException("sweep output " + dir + " is not empty and is not a servesim sweep (it holds "
                        + list(foreignElsewhere) + "); servesim never deletes a file it did not write: choose another"
                        + " --output, or --overwrite to write the sweep beside them (they are kept)");
            }
        }
        return new Verdict(dir, Mode.FRESH, owned, stagedGrid.isPresent(), success.isPresent());
    }

    /**
     * Refuses to resume when the sweep file now asks for other datasets than the interrupted sweep wrote (say
     * {@code outputs.requests} turned off, or {@code decisions} on): the finished cells' kept rows hold the datasets
     * of then, so the resumed datasets would miss rows or hold rows of a dataset no longer written. A staged
     * {@code _SWEEP.yaml} without an entry (written before it was recorded) is not compared on it.
     */
    private static void refuseOtherOutputs(Path staging, SweepPlan plan) throws IOException {
        JsonNode then = YAML.readTree(staging.resolve(SweepSidecars.SWEEP).toFile()).path("outputs");
        JsonNode now = SweepSidecars.outputs(plan.spec().outputs());
        List<String> differ = new ArrayList<>();
        now.fieldNames().forEachRemaining(k -> {
            if (then.has(k) && !then.get(k).asText().equals(now.get(k).asText())) {
                differ.add(k + ": " + then.get(k).asText() + " then, " + now.get(k).asText() + " now");
            }
        });
        if (!differ.isEmpty()) {
            throw new RefusedException("cannot resume: the interrupted sweep in " + staging + " wrote other outputs ("
                    + String.join("; ", differ) + "), and its finished cells' rows hold those datasets; restore the sweep"
                    + " file's outputs: to resume, or --overwrite discards it");
        }
    }

    /**
     * Whether {@code rel} (relative to a staging folder that holds a servesim sweep) is a file servesim writes there:
     * the sidecars, the checkpoints, the datasets, and hidden temporary files (its own and the runners').
     */
    private static boolean isStagingFile(String rel) {
        String top = rel.contains("/") ? rel.substring(0, rel.indexOf('/')) : rel;
        return top.startsWith(".") || top.equals(SweepSidecars.SWEEP) || top.equals(SweepSidecars.SUMMARY)
                || (rel.contains("/") && (top.equals(Checkpoint.DIRECTORY) || isDatasetFile(rel)));
    }

    /** Whether {@code rel} lies inside one of the dataset directories. */
    private static boolean isDatasetFile(String rel) {
        for (Dataset d : Dataset.values()) {
            if (rel.startsWith(d.directory() + "/")) {
                return true;
            }
        }
        return false;
    }

    private static Set<String> cellIds(SweepPlan plan) {
        Set<String> ids = new HashSet<>();
        plan.cells().forEach(c -> ids.add(c.cellId()));
        return ids;
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

    private static String list(List<String> files) {
        List<String> sorted = files.stream().sorted().toList();
        String shown = String.join(", ", sorted.subList(0, Math.min(LISTED, sorted.size())));
        return sorted.size() > LISTED ? shown + " and " + (sorted.size() - LISTED) + " more" : shown;
    }
}
