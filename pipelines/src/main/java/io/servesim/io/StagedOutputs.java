package io.servesim.io;

import io.servesim.exit.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The files one command writes where its flags say (e.g. {@code run --requests-out r.csv}), written so that nothing is
 * lost and nothing looks complete that is not: each is written, under its own name, in a hidden staging folder beside
 * its target ({@code .r.parquet.<uuid>.partial/r.parquet}) and renamed onto the target only when the command has
 * succeeded ({@link #commit}, an atomic rename per file). A process killed outright (SIGKILL, a power cut) leaves
 * that folder behind, but nothing a {@code *.parquet} glob over the target's folder (DuckDB's, pandas') would read. An
 * existing target is refused before any work unless the user asked to {@code --overwrite} it, as servesim cannot tell
 * a file it wrote from one of the user's. If the command fails, or is interrupted (Ctrl-C, SIGTERM: a shutdown hook),
 * the temporary files are deleted, the targets are left as they were, and an interruption says so.
 */
public final class StagedOutputs implements AutoCloseable {
    private final String command;
    private final PrintStream err;
    private final List<Output> outputs = new ArrayList<>();
    private final Thread hook;
    private volatile boolean finished;

    /**
     * One target and the temporary file written in its place until the commit; {@code overwrite} when the user asked
     * to replace an existing target.
     */
    public record Output(String flag, Path target, Path temp, boolean overwrite) {
    }

    private StagedOutputs(String command, PrintStream err) {
        this.command = command;
        this.err = err;
        this.hook = new Thread(this::interrupted, "servesim-" + command + "-interrupted");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Starts the outputs of {@code command} ("run"), reporting an interruption on {@code err}. */
    public static StagedOutputs start(String command, PrintStream err) {
        return new StagedOutputs(command, err);
    }

    /**
     * Stages {@code target}, named by {@code flag}: checks it can be written ({@link OutputPath#probeFile}) and, unless
     * {@code overwrite}, that it does not exist; returns the temporary path to write instead: the target's own name
     * (so a writer that picks its format by extension picks the same one) in a hidden staging folder of its own beside
     * the target, on the same file system, so that no glob of the target's folder matches it.
     */
    public synchronized Path stage(String flag, Path target, boolean overwrite) {
        refuseInsideDataset(flag, target);
        OutputPath.probeFile(flag, target);
        if (!overwrite && (Files.exists(target) || Files.isSymbolicLink(target))) {
            throw new UsageException(flag + " " + target + ": exists" + (Files.exists(target) ? "" : " (a symbolic link to"
                    + " nothing)") + "; servesim replaces an existing file only when told to (it may be another run's output"
                    + " or yours): choose another path, or add --overwrite to replace it");
        }
        Path abs = target.toAbsolutePath().normalize();
        String name = abs.getFileName().toString();
        Path folder = abs.resolveSibling("." + name + "." + UUID.randomUUID() + ".partial");
        try {
            if (Files.isDirectory(folder.getParent())) {
                Files.createDirectory(folder); // else the writer creates the target's folders with it, as it would the target's
            }
        } catch (IOException e) {
            throw new UsageException(flag + " " + target + ": cannot create the staging folder " + folder + ": "
                    + io.servesim.exit.ErrorReport.cause(e));
        }
        Path temp = folder.resolve(name);
        outputs.add(new Output(flag, target, temp, overwrite));
        return temp;
    }

    /** Marker files of a servesim output folder (a sweep's, a plan's, an evolve search's), in it when it is complete. */
    private static final List<String> OUTPUT_MARKERS = List.of("_SWEEP.yaml", "_PLAN.yaml", "_EVOLVE.yaml");

    /**
     * Refuses {@code target} in a dataset folder of a servesim output (a folder of {@code part-*.parquet} files beside a
     * {@link #OUTPUT_MARKERS marker}): DuckDB's {@code cells/*.parquet}, pandas and {@code servesim report} would read it
     * as one of the dataset's parts, and the job would refuse to run into its folder again.
     */
    private static void refuseInsideDataset(String flag, Path target) {
        Path abs = OutputPath.real(target);
        Path folder = abs.getParent();
        Path job = folder == null ? null : folder.getParent();
        if (job == null || OUTPUT_MARKERS.stream().noneMatch(m -> Files.isRegularFile(job.resolve(m)))) {
            return;
        }
        boolean dataset;
        try (java.util.stream.Stream<Path> files = Files.list(folder)) {
            dataset = files.map(f -> f.getFileName().toString()).anyMatch(n -> n.startsWith("part-") && n.endsWith(".parquet"));
        } catch (IOException | java.io.UncheckedIOException e) {
            return; // not a folder that can be listed: writing there fails on its own, naming the path
        }
        if (dataset) {
            throw new UsageException(flag + " " + target + ": inside " + folder + ", a dataset folder of the servesim output "
                    + job + ", whose readers (DuckDB's " + folder.getFileName() + "/*.parquet, pandas, servesim report) would"
                    + " take it for one of the dataset's parts; write it elsewhere, e.g. "
                    + job.resolveSibling(job.getFileName() + "-" + abs.getFileName()));
        }
    }

    /**
     * Puts every staged file in its target's place: the command succeeded. With {@code --overwrite} an atomic rename
     * replaces the target; without it the file is linked in under the target's name, which fails if another writer
     * created the target meanwhile (link(2) never replaces), so a second writer racing this one loses nothing: this
     * command's file is then kept under a name of its own beside the target, and a {@link UsageException} says where.
     */
    public synchronized void commit() throws IOException {
        List<String> kept = new ArrayList<>();
        for (Output o : outputs) {
            if (!Files.exists(o.temp())) {
                Files.deleteIfExists(o.temp().getParent());
                continue;
            }
            Path target = o.target().toAbsolutePath();
            if (o.overwrite()) {
                Files.move(o.temp(), target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } else if (!placeWithoutReplacing(o.temp(), target)) {
                Path aside = aside(target);
                Files.move(o.temp(), aside, StandardCopyOption.ATOMIC_MOVE);
                kept.add(o.flag() + " " + o.target() + " was created by another writer while this " + command + " ran, and"
                        + " is left as it is; this " + command + "'s output is in " + aside);
            }
            Files.delete(o.temp().getParent());
        }
        finished = true;
        if (!kept.isEmpty()) {
            throw new UsageException(String.join("; ", kept));
        }
    }

    /** Links {@code temp} in as {@code target} and removes its temporary name; false when the target exists. */
    private static boolean placeWithoutReplacing(Path temp, Path target) throws IOException {
        try {
            Files.createLink(target, temp);
        } catch (FileAlreadyExistsException taken) {
            return false;
        } catch (UnsupportedOperationException | IOException noLinks) {
            // a file system without hard links: a rename that refuses an existing target (checked, then renamed)
            try {
                Files.move(temp, target);
                return true;
            } catch (FileAlreadyExistsException taken) {
                return false;
            }
        }
        Files.delete(temp);
        return true;
    }

    /** {@code r.parquet} -> {@code r.<8 hex digits>.parquet}, beside it: a name no other writer uses. */
    private static Path aside(Path target) {
        String name = target.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String tag = UUID.randomUUID().toString().substring(0, 8);
        return target.resolveSibling(dot > 0 ? name.substring(0, dot) + "." + tag + name.substring(dot) : name + "." + tag);
    }

    /**
     * The context a command reports {@code error} in when it is a failed write that names no file (a full disk): the
     * outputs it was writing, none of which was put in place; null otherwise.
     */
    public synchronized String unnamedWriteFailure(Throwable error) {
        if (outputs.isEmpty() || !io.servesim.exit.ErrorReport.isUnnamedIoError(error)) {
            return null;
        }
        return "cannot write " + String.join(", ", outputs.stream().map(o -> o.flag() + " " + o.target()).toList())
                + " (nothing was put in place)";
    }

    /** Deletes what was not committed (the command failed) and removes the interruption hook. */
    @Override
    public synchronized void close() {
        if (!finished) {
            discard();
        }
        finished = true;
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is exiting: the hook runs, and finds the outputs finished
        }
    }

    private synchronized void interrupted() {
        if (finished) {
            return;
        }
        discard();
        finished = true;
        List<String> left = outputs.stream().map(o -> o.target().toString()).toList();
        err.println("servesim " + command + ": interrupted; nothing was written"
                + (left.isEmpty() ? "" : " (" + String.join(", ", left) + " left as they were)"));
        err.flush();
    }

    private void discard() {
        for (Output o : outputs) {
            try {
                Files.deleteIfExists(o.temp());
                Files.deleteIfExists(o.temp().getParent());
            } catch (IOException e) {
                err.println("servesim " + command + ": could not delete the temporary file " + o.temp() + ": " + e.getMessage());
            }
        }
    }
}
