package io.servesim.sweep;

import io.servesim.exit.UsageException;
import io.servesim.io.OutputLock;
import io.servesim.io.OutputPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What an output directory servesim writes (a sweep's, a capacity plan's: its {@link OutputLayout}) holds before
 * it writes into it, and whether it may: the safety check, made before any work. servesim only ever deletes files
 * one of its manifests ({@link OutputManifest}) lists; everything else in the directory is the user's.
 *
 * <p>The rules, in order:
 * <ol>
 *   <li>A file of the user's inside a data folder ({@code cells/}, {@code requests/}, a plan's {@code rounds/}, ...)
 *       would be read as part of the results: always refused, even with {@code --overwrite}. So is one in
 *       {@code _staging/} (deleted whole when the work commits) or under a name servesim writes at the top
 *       ({@code _SUCCESS}, {@code _INCOMPLETE}, the definition such as {@code _SWEEP.yaml}, {@code _SUMMARY.json}) that no
 *       manifest lists: servesim would have to delete or replace it. The writer's {@link OutputLock} file is servesim's.</li>
 *   <li>An interrupted one ({@code _staging/}) is finished with {@code --resume} (same definition only) or discarded
 *       with {@code --overwrite}; with neither, it is refused, unless nothing of it had finished (then nothing computed
 *       is lost by starting over). What a commit cut short after its {@code _SUCCESS} left ({@link OutputCommit})
 *       is not interrupted work: the results are whole, and the leftover is discarded.</li>
 *   <li>Results of the same definition (same ids: a sweep's cell ids, in the same axis columns and order) are
 *       replaced once the new run has succeeded; results of another, or any other non-empty directory, only with
 *       {@code --overwrite}, which still keeps every file servesim did not write.</li>
 * </ol>
 */
public final class OutputDir {
    /** The staging folder under the output directory: the running or interrupted work. */
    public static final String STAGING = "_staging";

    private static final int LISTED = 5;

    private OutputDir() {
    }

    /** How the work may proceed. */
    public enum Mode {
        /** Start afresh (earlier results, if any, are replaced when it succeeds). */
        FRESH,
        /** Finish the interrupted work in {@code _staging/}. */
        RESUME,
        /** {@code --resume} on a directory that already holds this definition's complete results. */
        ALREADY_COMPLETE
    }

    /**
     * The check's verdict.
     *
     * @param dir           the output directory
     * @param mode          how to proceed
     * @param ownedFiles    files of earlier work that the commit may delete (relative to {@code dir})
     * @param discardStaging whether an interrupted run's staging folder, or what a commit cut short left of one (all of
     *                       it servesim's), is to be discarded first
     * @param previousComplete whether {@code dir} holds complete earlier results ({@code _SUCCESS})
     */
    public record Verdict(Path dir, Mode mode, Set<String> ownedFiles, boolean discardStaging, boolean previousComplete) {
        public Path staging() {
            return dir.resolve(STAGING);
        }

        /**
         * For {@link Mode#ALREADY_COMPLETE}: deletes the staging folder a commit cut short after its {@code _SUCCESS}
         * left (the check found only servesim's files in it), finishing that commit.
         */
        public void finishCommit() throws IOException {
            if (mode == Mode.ALREADY_COMPLETE && discardStaging) {
                OutputCommit.deleteTree(staging());
            }
        }
    }

    /** The directory may not be used as asked; the message says why and what to do (exit 2). */
    public static final class RefusedException extends UsageException {
        private static final long serialVersionUID = 1L;

        public RefusedException(String message) {
            super(message);
        }
    }

    /** Inspects {@code dir} for the work {@code layout} describes under the user's flags. */
    public static Verdict inspect(Path dir, OutputLayout layout, boolean overwrite, boolean resume) throws IOException {
        String noun = layout.noun();
        if (overwrite && resume) {
            throw new RefusedException("--overwrite and --resume exclude each other: --resume finishes the interrupted " + noun
                    + ", --overwrite discards it");
        }
        OutputPath.refuseLinkToNothing(noun + " output " + dir, dir);
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new RefusedException(noun + " output " + dir + " is a file, not a directory; choose another --output");
        }
        if (!Files.exists(dir)) {
            if (resume) {
                throw new RefusedException("nothing to resume: " + dir + " does not exist");
            }
            return new Verdict(dir, Mode.FRESH, Set.of(), false, false);
        }
        Optional<OutputManifest> success = OutputManifest.read(dir, OutputManifest.Marker.SUCCESS);
        Optional<OutputManifest> incomplete = OutputManifest.read(dir, OutputManifest.Marker.INCOMPLETE);
        Set<String> owned = new HashSet<>();
        success.ifPresent(m -> owned.addAll(m.files()));
        incomplete.ifPresent(m -> owned.addAll(m.files()));
        success.ifPresent(m -> owned.add(m.marker().file));
        incomplete.ifPresent(m -> owned.add(m.marker().file));

        Path staging = dir.resolve(STAGING);
        // what a commit cut short after its _SUCCESS left: the results are whole, the staging folder is leftover
        boolean cutCommit = success.isPresent() && Files.isRegularFile(staging.resolve(OutputCommit.COMMITTED));
        Optional<Set<String>> stagedIds = Files.isDirectory(staging) && !cutCommit ? layout.ids(staging) : Optional.empty();
        Pattern definitionBeingWritten = Pattern.compile(
                Pattern.quote(STAGING + "/." + layout.definitionFile() + ".") + "[0-9a-f-]{36}\\.tmp");
        Set<String> reserved = new HashSet<>(layout.reservedFiles());
        reserved.addAll(List.of(OutputManifest.Marker.SUCCESS.file, OutputManifest.Marker.INCOMPLETE.file,
                layout.definitionFile()));
        List<String> foreignInData = new ArrayList<>();
        List<String> foreignInStaging = new ArrayList<>();
        List<String> foreignReserved = new ArrayList<>();
        List<String> foreignElsewhere = new ArrayList<>();
        List<String> links = new ArrayList<>();
        Set<String> idsInStaging = Files.isDirectory(staging) ? layout.ids(staging).orElse(Set.of()) : Set.of();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) walk.filter(p -> !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))::iterator) {
                String rel = dir.relativize(f).toString().replace('\\', '/');
                boolean inStaging = rel.startsWith(STAGING + "/");
                if (Files.isSymbolicLink(f)) {
                    // a link where servesim writes or deletes would take its writes and deletions elsewhere
                    String top = rel.contains("/") ? rel.substring(0, rel.indexOf('/')) : rel;
                    if (inStaging || top.equals(STAGING) || layout.dataFolders().contains(top) || isDataFile(layout, rel)
                            || reserved.contains(rel) || owned.contains(rel)) {
                        links.add(rel);
                        continue;
                    }
                }
                if (owned.contains(rel) || rel.equals(OutputLock.FILE) || definitionBeingWritten.matcher(rel).matches()
                        || OutputManifest.BEING_WRITTEN.matcher(rel).matches()
                        || (inStaging && (stagedIds.isPresent() || cutCommit)
                        && isStagingFile(layout, rel.substring(STAGING.length() + 1), idsInStaging))) {
                    continue;
                }
                (isDataFile(layout, rel) ? foreignInData : inStaging ? foreignInStaging
                        : reserved.contains(rel) ? foreignReserved : foreignElsewhere).add(rel);
            }
        }
        if (!links.isEmpty()) {
            throw new RefusedException(noun + " output " + dir + " has symbolic links where a " + noun + " writes and deletes"
                    + " (" + list(links) + "); servesim never writes or deletes through a link: replace them by the folders"
                    + " or files they point to, or choose another --output");
        }
        if (!foreignInData.isEmpty()) {
            throw new RefusedException(noun + " output " + dir + " has files servesim did not write inside its dataset folders ("
                    + list(foreignInData) + "); they would be read as part of the datasets, and servesim never deletes"
                    + " a file it did not write: move them away or choose another --output");
        }
        if (!foreignInStaging.isEmpty()) {
            throw new RefusedException(noun + " output " + dir + " has files servesim did not write in " + STAGING + "/ ("
                    + list(foreignInStaging) + "), the folder a " + noun + " runs in and deletes whole when it commits, and"
                    + " servesim never deletes a file it did not write: move them away or choose another --output");
        }
        if (!foreignReserved.isEmpty()) {
            throw new RefusedException(noun + " output " + dir + " holds " + list(foreignReserved) + ", which no servesim"
                    + " manifest lists, under names a " + noun + " writes; servesim never replaces a file it did not write: move"
                    + " them away or choose another --output");
        }
        if (stagedIds.isPresent()) {
            if (resume) {
                if (!layout.describesNow(staging)) {
                    throw new RefusedException("cannot resume: the interrupted " + noun + " in " + staging + " is of another "
                            + layout.identityNoun() + " (" + layout.difference(staging) + "); --overwrite discards it");
                }
                layout.checkResume(staging);
                return new Verdict(dir, Mode.RESUME, owned, false, success.isPresent());
            }
            if (!overwrite && layout.finished(staging) > 0) {
                boolean same = layout.describesNow(staging);
                throw new RefusedException(dir + " holds an interrupted " + noun + (same ? "" : " of another "
                        + layout.identityNoun()) + " (" + layout.progress(staging, stagedIds.get()) + ", in " + staging + "): "
                        + (same ? "--resume finishes it, --overwrite discards it"
                                : "choose another --output, or --overwrite to discard it"));
            }
        } else if (resume) {
            if (success.isPresent() && layout.describesNow(dir)) {
                return new Verdict(dir, Mode.ALREADY_COMPLETE, owned, Files.isDirectory(staging), true);
            }
            throw new RefusedException("nothing to resume in " + dir + ": it holds no interrupted " + noun + " (no " + STAGING
                    + "/)");
        }
        refuseAround(dir, noun, foreignElsewhere);
        boolean ownedOutput = !owned.isEmpty() && owned.contains(layout.definitionFile());
        boolean same = ownedOutput && layout.describesNow(dir);
        if (!overwrite && !same) {
            if (ownedOutput) {
                throw new RefusedException(dir + " holds the results of another " + noun + " " + layout.identityNoun()
                        + " (see " + dir.resolve(layout.definitionFile()) + "); choose another --output, or --overwrite to"
                        + " replace them (only the files its " + OutputManifest.Marker.SUCCESS.file + " lists are deleted)");
            }
            if (!foreignElsewhere.isEmpty()) {
                throw new RefusedException(noun + " output " + dir + " is not empty and is not a servesim " + noun + " (it holds "
                        + list(foreignElsewhere) + "); servesim never deletes a file it did not write: choose another"
                        + " --output, or --overwrite to write the " + noun + " beside them (they are kept)");
            }
        }
        return new Verdict(dir, Mode.FRESH, owned, stagedIds.isPresent() || cutCommit, success.isPresent());
    }

    /**
     * Refuses {@code dir}, the output folder a {@code noun} was asked to write, when it lies inside another servesim
     * output folder (a sweep's, a plan's, a policy search's, finished or not): that job's next run would refuse a folder
     * it did not write beside its results, and inside one of its dataset folders ({@code cells/}) its readers would
     * take the new files for its own.
     */
    public static void refuseNested(Path dir, String noun) {
        Path abs = OutputPath.real(dir);
        for (Path d = abs.getParent(); d != null; d = d.getParent()) {
            if (d.endsWith(STAGING)) {
                continue; // a job's staging folder: the job's own folder, its parent, is named instead
            }
            Optional<String> job = jobAt(d);
            if (job.isPresent()) {
                throw new RefusedException(noun + " output " + dir + ": inside " + d + ", the output folder of a "
                        + job.get() + ", which holds only the files that " + job.get() + " wrote (it would refuse to run"
                        + " into its folder again, and its readers would take files in its dataset folders for its own);"
                        + " choose a folder outside it, e.g. " + d.resolveSibling(d.getFileName() + "-" + abs.getFileName()));
            }
        }
    }

    /** What servesim job's output folder {@code d} is ({@code sweep}, {@code plan}, {@code search}), if any. */
    private static Optional<String> jobAt(Path d) {
        boolean sweep = Files.isRegularFile(d.resolve(SweepSidecars.SWEEP))
                || Files.isRegularFile(d.resolve(STAGING).resolve(SweepSidecars.SWEEP));
        return sweep ? Optional.of("sweep") : RoundsJob.at(d).map(RoundsJob::noun);
    }

    /**
     * Refuses to write around another job's output: a folder among those of {@code files} (relative to {@code dir}) that
     * is one would end up inside this one's, where no run could write it again ({@link #refuseNested}).
     */
    private static void refuseAround(Path dir, String noun, List<String> files) {
        Set<String> seen = new HashSet<>();
        for (String rel : files) {
            for (int slash = rel.indexOf('/'); slash > 0; slash = rel.indexOf('/', slash + 1)) {
                String folder = rel.substring(0, slash);
                if (!seen.add(folder)) {
                    continue;
                }
                Optional<String> job = jobAt(dir.resolve(folder));
                if (job.isPresent()) {
                    throw new RefusedException(noun + " output " + dir + " holds " + dir.resolve(folder) + ", the output"
                            + " folder of a " + job.get() + ": written around it, that " + job.get() + " would lie inside this "
                            + noun + "'s folder, where no run could write it again; choose another --output");
                }
            }
        }
    }

    /** Whether {@code rel}, relative to a staging folder holding this kind of output, is servesim's: hidden, or the layout's. */
    private static boolean isStagingFile(OutputLayout layout, String rel, Set<String> stagedIds) {
        String top = rel.contains("/") ? rel.substring(0, rel.indexOf('/')) : rel;
        return top.startsWith(".") || layout.isStagingFile(rel, stagedIds);
    }

    /** Whether {@code rel} lies inside one of the layout's data folders. */
    private static boolean isDataFile(OutputLayout layout, String rel) {
        return layout.dataFolders().stream().anyMatch(d -> rel.startsWith(d + "/"));
    }

    private static String list(List<String> files) {
        List<String> sorted = files.stream().sorted().toList();
        String shown = String.join(", ", sorted.subList(0, Math.min(LISTED, sorted.size())));
        return sorted.size() > LISTED ? shown + " and " + (sorted.size() - LISTED) + " more" : shown;
    }
}
