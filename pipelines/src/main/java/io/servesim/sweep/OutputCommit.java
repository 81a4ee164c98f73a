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
import java.util.stream.Stream;

/**
 * Moves succeeded work (a sweep, a capacity plan) from its staging folder into the output directory, the only time
 * it touches earlier results. The order keeps two promises at every instant, even if the
 * process dies in between: the directory never holds a {@code _SUCCESS} beside partial results,
 * and every file servesim wrote is listed in a manifest, so the next run can delete it and never
 * anything else.
 * <ol>
 *   <li>{@code _INCOMPLETE} lists the earlier results' files and the new ones; {@code _SUCCESS} goes;</li>
 *   <li>the earlier results' files are deleted (only those its manifest listed), and the
 *       folders they leave empty;</li>
 *   <li>the new files are renamed into place (same file system: each rename is atomic);</li>
 *   <li>{@code _SUCCESS} is written listing the new files; then {@code _INCOMPLETE} and the staging
 *       folder (checkpoints, runner temp files) are removed.</li>
 * </ol>
 */
public final class OutputCommit {
    private OutputCommit() {
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
     * Commits {@code fresh} (paths relative to {@code staging}) into {@code dir}, replacing {@code previous} (paths
     * relative to {@code dir}); {@code what} names the work in the interim {@code _INCOMPLETE} ("sweep", "plan").
     */
    public static List<String> commit(Path staging, Path dir, List<String> fresh, Set<String> previous, String what)
            throws IOException {
        Set<String> all = new TreeSet<>(previous);
        all.addAll(fresh);
        all.remove(OutputManifest.Marker.SUCCESS.file);
        all.remove(OutputManifest.Marker.INCOMPLETE.file);
        OutputManifest.incomplete("moving a finished " + what + " into place", all).write(dir);
        Files.deleteIfExists(dir.resolve(OutputManifest.Marker.SUCCESS.file));
        for (String f : previous) {
            if (!f.equals(OutputManifest.Marker.INCOMPLETE.file)) {
                Files.deleteIfExists(dir.resolve(f));
                removeEmptyParents(dir, dir.resolve(f).getParent());
            }
        }
        for (String f : fresh) {
            Path target = dir.resolve(f);
            Files.createDirectories(target.getParent());
            Files.move(staging.resolve(f), target, StandardCopyOption.ATOMIC_MOVE);
        }
        OutputManifest.success(fresh).write(dir);
        Files.deleteIfExists(dir.resolve(OutputManifest.Marker.INCOMPLETE.file));
        deleteTree(staging);
        return fresh;
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
