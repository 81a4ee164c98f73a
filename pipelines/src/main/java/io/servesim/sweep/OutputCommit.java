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
 * Moves a succeeded sweep from its staging folder into the output directory, the only time a
 * sweep touches earlier results. The order keeps two promises at every instant, even if the
 * process dies in between: the directory never holds a {@code _SUCCESS} beside partial datasets,
 * and every file servesim wrote is listed in a manifest, so the next sweep can delete it and never
 * anything else.
 * <ol>
 *   <li>{@code _INCOMPLETE} lists the earlier results' files and the new ones; {@code _SUCCESS} goes;</li>
 *   <li>the earlier results' files are deleted (only those its manifest listed), and the dataset
 *       folders they leave empty;</li>
 *   <li>the new datasets and sidecars are renamed into place (same file system: each rename is atomic);</li>
 *   <li>{@code _SUCCESS} is written listing the new files; then {@code _INCOMPLETE} and the staging
 *       folder (checkpoints, runner temp files) are removed.</li>
 * </ol>
 */
final class OutputCommit {
    private OutputCommit() {
    }

    /** Commits {@code staging}'s datasets and sidecars into {@code dir}, replacing {@code previous} (relative paths). */
    static List<String> commit(Path staging, Path dir, List<Dataset> written, Set<String> previous) throws IOException {
        List<String> fresh = new ArrayList<>();
        for (Dataset d : written) {
            try (Stream<Path> files = Files.list(staging.resolve(d.directory()))) {
                files.filter(f -> f.getFileName().toString().endsWith(".parquet")).sorted()
                        .forEach(f -> fresh.add(d.directory() + "/" + f.getFileName()));
            }
        }
        fresh.add(SweepSidecars.SWEEP);
        fresh.add(SweepSidecars.SUMMARY);
        Set<String> all = new TreeSet<>(previous);
        all.addAll(fresh);
        all.remove(OutputManifest.Marker.SUCCESS.file);
        all.remove(OutputManifest.Marker.INCOMPLETE.file);
        OutputManifest.incomplete("moving a finished sweep into place", all).write(dir);
        Files.deleteIfExists(dir.resolve(OutputManifest.Marker.SUCCESS.file));
        for (String f : previous) {
            if (!f.equals(OutputManifest.Marker.INCOMPLETE.file)) {
                Files.deleteIfExists(dir.resolve(f));
            }
        }
        for (Dataset d : Dataset.values()) {
            removeIfEmpty(dir.resolve(d.directory()));
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
    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static void removeIfEmpty(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                if (s.findAny().isPresent()) {
                    return;
                }
            }
            Files.delete(dir);
        }
    }
}
