package io.servesim.sweep;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.exit.ErrorReport;
import io.servesim.exit.UsageException;
import io.servesim.io.OutputLock;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The output folder of a job run as rounds of sweeps (a capacity plan, a policy search) as {@link OutputDir} checks it,
 * under the rules a sweep's folder follows: {@code rounds/} (each round a sweep's output folder) and the job's own
 * data folders are its data; its {@link JobDefinition} file its definition, identified by the job's id; the named
 * files it writes; its staging folder holds all of them while it runs, a round counting as finished once its own
 * {@code _SUCCESS} is written. Also how such a job prepares its staging folder and lists its rounds' files.
 */
public final class RoundsLayout implements OutputLayout {
    /** The folder of the rounds, each a sweep's output folder. */
    public static final String ROUNDS = "rounds";

    private final String noun;
    private final JobDefinition definition;
    private final ObjectNode now;
    private final List<String> data;
    private final Set<String> named;
    private final List<String> identityKeys;
    private final String sameFileNote;

    /**
     * The layout of job {@code noun} ({@code plan}) whose definition now is {@code now} ({@link JobDefinition#identify}'s),
     * with data folders {@code data} (after {@code rounds/}) and named files {@code named}; a changed definition is
     * described by its {@code identityKeys}, and as {@code sameFileNote} when none of them changed.
     */
    public RoundsLayout(String noun, JobDefinition definition, ObjectNode now, List<String> data, Set<String> named,
                        List<String> identityKeys, String sameFileNote) {
        this.noun = noun;
        this.definition = definition;
        this.now = now;
        this.data = Stream.concat(Stream.of(ROUNDS), data.stream()).toList();
        this.named = Set.copyOf(named);
        this.identityKeys = List.copyOf(identityKeys);
        this.sameFileNote = sameFileNote;
    }

    @Override
    public String noun() {
        return noun;
    }

    @Override
    public String identityNoun() {
        return "definition";
    }

    @Override
    public String definitionFile() {
        return definition.file();
    }

    @Override
    public Set<String> reservedFiles() {
        return named;
    }

    @Override
    public List<String> dataFolders() {
        return data;
    }

    @Override
    public boolean isStagingFile(String rel, Set<String> stagedIds) {
        String top = rel.contains("/") ? rel.substring(0, rel.indexOf('/')) : rel;
        return top.equals(definition.file()) || named.contains(top) || (rel.contains("/") && data.contains(top));
    }

    @Override
    public Optional<Set<String>> ids(Path folder) {
        return definition.id(folder).map(Set::of);
    }

    @Override
    public Set<String> idsNow() {
        return Set.of(now.path(definition.idKey()).asText());
    }

    /** Finished rounds, and the cells a round that was running checkpointed: starting over would lose either. */
    @Override
    public int finished(Path staging) {
        return finishedRounds(staging) + keptCells(staging);
    }

    @Override
    public String progress(Path staging, Set<String> stagedIds) {
        int cells = keptCells(staging);
        return finishedRounds(staging) + " rounds finished" + (cells == 0 ? "" : ", and " + cells + " finished cells of the"
                + " round that was running");
    }

    /** The rounds under {@code staging} that wrote their {@code _SUCCESS}. */
    public static int finishedRounds(Path staging) {
        return rounds(staging, true).mapToInt(r -> 1).sum();
    }

    /** The cells checkpointed in the rounds under {@code staging} that did not finish (a sweep's staging each). */
    static int keptCells(Path staging) {
        return rounds(staging, false).mapToInt(r -> Checkpoint.count(r.resolve(OutputDir.STAGING))).sum();
    }

    private static Stream<Path> rounds(Path staging, boolean finished) {
        Path rounds = staging.resolve(ROUNDS);
        if (!Files.isDirectory(rounds)) {
            return Stream.empty();
        }
        try (Stream<Path> s = Files.list(rounds)) {
            return s.filter(Files::isDirectory).filter(r -> Files.isRegularFile(r.resolve("_SUCCESS")) == finished).toList()
                    .stream();
        } catch (IOException e) {
            return Stream.empty();
        }
    }

    @Override
    public String difference(Path staging) {
        return definition.read(staging).map(then -> GridDifference.describe(then, now, identityKeys, sameFileNote))
                .orElse("unreadable " + definition.file());
    }

    @Override
    public void checkResume(Path staging) {
        // a job's definition is the whole of what its rounds depend on: the same id is enough
    }

    /**
     * Prepares the staging folder of {@code v}: a fresh one (the definition first, and {@code _INCOMPLETE} in the output
     * folder when it holds no complete earlier job, saying {@code what} is running and how to {@code resume} it), or,
     * on resume, the interrupted one as it is.
     */
    public void stage(OutputDir.Verdict v, String what, String resume) {
        Path staging = v.staging();
        try {
            Files.createDirectories(v.dir());
            if (v.mode() == OutputDir.Mode.FRESH && v.discardStaging()) {
                OutputCommit.deleteTree(staging);
            }
            Files.createDirectories(staging);
            definition.write(staging, now);
            if (!v.previousComplete()) {
                Set<String> owned = new HashSet<>(v.ownedFiles());
                owned.remove(OutputManifest.Marker.INCOMPLETE.file);
                OutputManifest.incomplete(what + " is running, or was interrupted or failed: its finished rounds are kept in "
                        + OutputDir.STAGING + "/" + ROUNDS + "; finish it with: " + resume, owned).write(v.dir());
            }
        } catch (IOException | UncheckedIOException e) {
            throw new UsageException("cannot write the " + noun + " output " + v.dir() + ": " + ErrorReport.describe(e));
        }
    }

    /** What a job does once its output folder is checked and locked. */
    public interface Body<R> {
        /** Runs the job into {@code dir}; {@code resume} is the whole command that would finish it. */
        R run(Path dir, String resume, OutputLock lock) throws IOException;
    }

    /**
     * Checks the output folder {@code outDir} (null: {@code out/<name>/}) under these rules, so a refused job leaves it
     * as it was; takes its lock for {@code command} (after the launcher's name, with the runner's flags and without the
     * output's; {@code who} in messages), runs
     * {@code body}, and releases the lock, removing the folder if this call created it and nothing was written.
     */
    public <R> R locked(Path outDir, String name, String command, SweepJob.OutputFlags flags, PrintStream progress,
                        String who, Body<R> body) throws IOException {
        Path dir = (outDir != null ? outDir : Path.of("out", name)).toAbsolutePath().normalize();
        OutputDir.refuseNested(dir, noun);
        String given = SweepJob.launcher() + " " + command + " --output " + ShellWord.quote(dir.toString());
        String resume = given + " --resume";
        OutputLock.refuseIfHeld(dir);
        OutputDir.inspect(dir, this, flags.overwrite(), flags.resume());
        boolean existed = Files.exists(dir);
        OutputLock lock = OutputLock.take(dir, given + (flags.resume() ? " --resume" : flags.overwrite() ? " --overwrite" : ""),
                progress, who);
        try {
            return body.run(dir, resume, lock);
        } finally {
            lock.close();
            if (!existed) {
                OutputLock.removeUnusedFolder(dir);
            }
        }
    }

    /** Every file under {@code staging}'s rounds, relative to it. */
    public static List<String> roundFiles(Path staging) throws IOException {
        Path rounds = staging.resolve(ROUNDS);
        if (!Files.isDirectory(rounds)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(rounds)) {
            return walk.filter(Files::isRegularFile).sorted(Comparator.naturalOrder())
                    .map(f -> staging.relativize(f).toString().replace('\\', '/')).toList();
        }
    }
}
