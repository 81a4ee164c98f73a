package io.servesim.sweep;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Moves succeeded work (a sweep, a capacity plan) from its staging folder into the output directory, the only time
 * it touches earlier results. The order keeps three promises at every instant, even if the
 * process dies in between: the directory never holds a {@code _SUCCESS} beside partial results (a round's
 * {@code _SUCCESS} too moves after its other files), every file servesim wrote is listed in a manifest, so the next
 * run can delete it and never anything else, and whatever the staging folder still holds the next run recognises as
 * servesim's: the work's definition file stays in it until everything else has gone.
 * <ol>
 *   <li>{@code _INCOMPLETE} lists the earlier results' files and the new ones; {@code _SUCCESS} goes;</li>
 *   <li>the earlier results' files are deleted (only those its manifest listed), and the
 *       folders they leave empty;</li>
 *   <li>the new files are renamed into place (same file system: each rename is atomic), the definition copied;</li>
 *   <li>{@code _staging/.committed} marks the staging folder as a finished commit's leftover; {@code _SUCCESS} is
 *       written listing the new files; then {@code _INCOMPLETE} goes, and the staging folder (checkpoints, runner
 *       temp files), its definition and marker last.</li>
 * </ol>
 * Cut before {@code _SUCCESS}, the work is an interrupted one that {@code --resume} finishes; cut after, the next run
 * ({@link OutputDir#inspect}) sees a complete result and the marked leftover, which it discards.
 */
public final class OutputCommit {
    /** The marker a commit leaves in the staging folder once every new file is in place. */
    public static final String COMMITTED = ".committed";

    private OutputCommit() {
    }

    /** The commit's file-system changes, one call after each, in order (a test cuts the commit after any of them). */
    @FunctionalInterface
    interface Steps {
        void after(String change) throws IOException;
    }

    /** The Parquet files of {@code written} datasets in {@code staging} and the sweep's sidecars, relative to it. */
    static List<String> sweepFiles(Path staging, List<Dataset> written) throws IOException {
        List<String> fresh = new ArrayList<>();
        for (Dataset d : written) {
            try (Stream<Path> files = Files.list(staging.resolve(d.directory()))) {
                files.filter(f -> f.getFileName().toString().endsWith(".parquet")).sorted()
                        .forEach(f -> fresh.add(d.directory() + "/" + f.getFileName()));
            }
        }
        fresh.add(SweepSidecars.SWEEP);
        fresh.add(SweepSidecars.SUMMARY);
        return fresh;
    }

    /**
     * Commits {@code fresh} (paths relative to {@code staging}, the work's {@code definition} file among them) into
     * {@code dir}, replacing {@code previous} (paths relative to {@code dir}); {@code what} names the work in the
     * interim {@code _INCOMPLETE} ("sweep", "plan").
     */
    public static List<String> commit(Path staging, Path dir, List<String> fresh, Set<String> previous, String what,
                                      String definition) throws IOException {
        return commit(staging, dir, fresh, previous, what, definition, change -> { });
    }

    static List<String> commit(Path staging, Path dir, List<String> fresh, Set<String> previous, String what,
                               String definition, Steps steps) throws IOException {
        if (!fresh.contains(definition)) {
            throw new IllegalArgumentException("the files to commit do not include the definition " + definition);
        }
        Set<String> all = new TreeSet<>(previous);
        all.addAll(fresh);
        all.remove(OutputManifest.Marker.SUCCESS.file);
        all.remove(OutputManifest.Marker.INCOMPLETE.file);
        OutputManifest.incomplete("moving a finished " + what + " into place", all).write(dir);
        steps.after("write " + OutputManifest.Marker.INCOMPLETE.file);
        if (Files.deleteIfExists(dir.resolve(OutputManifest.Marker.SUCCESS.file))) {
            steps.after("delete " + OutputManifest.Marker.SUCCESS.file);
        }
        for (String f : previous) {
            if (!f.equals(OutputManifest.Marker.INCOMPLETE.file) && Files.deleteIfExists(dir.resolve(f))) {
                removeEmptyParents(dir, dir.resolve(f).getParent());
                steps.after("delete " + f);
            }
        }
        for (String f : successLast(fresh)) {
            Path target = dir.resolve(f);
            Files.createDirectories(target.getParent());
            if (f.equals(definition)) { // copied: the staging folder keeps saying whose it is
                Path tmp = staging.resolve("." + definition + "." + UUID.randomUUID() + ".tmp");
                Files.copy(staging.resolve(f), tmp);
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            } else {
                Files.move(staging.resolve(f), target, StandardCopyOption.ATOMIC_MOVE);
            }
            steps.after("move " + f);
        }
        Files.writeString(staging.resolve(COMMITTED), "");
        steps.after("write " + COMMITTED);
        OutputManifest.success(fresh).write(dir);
        steps.after("write " + OutputManifest.Marker.SUCCESS.file);
        Files.deleteIfExists(dir.resolve(OutputManifest.Marker.INCOMPLETE.file));
        steps.after("delete " + OutputManifest.Marker.INCOMPLETE.file);
        discardLeftover(staging, definition, steps);
        return fresh;
    }

    /** {@code files} with every {@code _SUCCESS} (of a round) after the files it lists, the order otherwise kept. */
    private static List<String> successLast(List<String> files) {
        List<String> ordered = new ArrayList<>(files.size());
        Predicate<String> marker = f -> f.equals(OutputManifest.Marker.SUCCESS.file)
                || f.endsWith("/" + OutputManifest.Marker.SUCCESS.file);
        files.stream().filter(marker.negate()).forEach(ordered::add);
        files.stream().filter(marker).forEach(ordered::add);
        return ordered;
    }

    /**
     * Deletes a committed staging folder: its definition and {@link #COMMITTED} marker last, so a folder cut short here
     * still says it is a finished commit's leftover.
     */
    private static void discardLeftover(Path staging, String definition, Steps steps) throws IOException {
        Path def = staging.resolve(definition);
        Path marker = staging.resolve(COMMITTED);
        try (Stream<Path> walk = Files.walk(staging)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                if (!p.equals(staging) && !p.equals(def) && !p.equals(marker)) {
                    Files.delete(p);
                    steps.after("delete " + staging.relativize(p));
                }
            }
        }
        for (Path p : List.of(def, marker, staging)) {
            Files.delete(p);
            steps.after("delete " + p.getFileName());
        }
    }

    /**
     * Finishes a commit cut short after its {@code _SUCCESS} in {@code dir}: deletes the staging folder it left, if
     * marked {@link #COMMITTED} (a plan's round it reads back as finished).
     */
    public static void finishCut(Path dir) throws IOException {
        Path staging = dir.resolve(OutputDir.STAGING);
        if (OutputManifest.read(dir, OutputManifest.Marker.SUCCESS).isPresent() && Files.isRegularFile(staging.resolve(COMMITTED))) {
            deleteTree(staging);
        }
    }

    /** Deletes {@code root} and everything under it (only ever called on servesim's own staging folder). */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** Removes {@code folder} and its parents below {@code dir} while they are empty (an earlier result's folders). */
    private static void removeEmptyParents(Path dir, Path folder) throws IOException {
        for (Path f = folder; f != null && f.startsWith(dir) && !f.equals(dir) && Files.isDirectory(f); f = f.getParent()) {
            try (Stream<Path> s = Files.list(f)) {
                if (s.findAny().isPresent()) {
                    return;
                }
            }
            Files.delete(f);
        }
    }
}
