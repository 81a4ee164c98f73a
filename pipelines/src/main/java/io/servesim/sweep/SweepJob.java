package io.servesim.sweep;

import io.servesim.exit.ErrorReport;
import io.servesim.exit.UsageException;
import io.servesim.io.OutputLock;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;

/**
 * The work of {@code servesim sweep}: bind the sweep file, validate every cell (all invalid ones
 * listed at once), check the output directory ({@link OutputDir}: refuse rather than touch a file
 * servesim did not write), run the pipeline into a staging folder with progress on a stream, read
 * the cells back, move the datasets into place ({@link OutputCommit}, {@code _SUCCESS} last) and
 * return what was written ({@link SweepResult}); the command prints it. An interrupted sweep exits
 * 130 / 143 with its finished cells kept ({@link InterruptGuard}).
 */
public final class SweepJob {
    private SweepJob() {
    }

    /**
     * How the sweep may treat its output directory.
     *
     * @param overwrite write even where the directory holds another sweep or the user's files (only
     *                  servesim's own files are ever deleted), discarding an interrupted sweep
     * @param resume    finish the interrupted sweep in the directory: run only its unfinished cells
     */
    public record OutputFlags(boolean overwrite, boolean resume) {
        /** Neither flag. */
        public static final OutputFlags NONE = new OutputFlags(false, false);
    }

    /**
     * How the sweep was asked for, for the lines it writes: {@code command} (after the launcher's name) is recorded in
     * the output folder's lock, {@code resumeCommand} is the whole command that finishes it if it is interrupted, and
     * a sweep that is a round of a larger job (a capacity plan, which says what each round runs and whose own guard
     * reports an interruption) is {@code silent}: no line of its own before it runs, nothing when interrupted.
     */
    public record Invocation(String command, String resumeCommand, boolean silent) {
    }

    /**
     * Runs {@code sweepFile} into {@code outDir} (null = {@code out/<name>/}), reporting progress on
     * {@code progress}; returns what it wrote. A bad sweep file, invalid cells or an output directory
     * that may not be used throw a {@link io.servesim.exit.UsageException} or
     * {@link io.servesim.config.ConfigException} before anything runs; a pipeline that fails throws
     * {@link SweepFailedException} (its finished cells are kept for {@code --resume}).
     */
    public static SweepResult run(Path sweepFile, Path outDir, RunnerChoice runner, OutputFlags flags, PrintStream progress)
            throws IOException {
        return run(sweepFile, outDir, runner, flags, progress, dir -> { });
    }

    /**
     * As {@link #run(Path, Path, RunnerChoice, OutputFlags, PrintStream)}; {@code checkOutputs} checks, with the output
     * folder resolved and locked and before any cell runs, whatever else the command will write there (a report).
     */
    public static SweepResult run(Path sweepFile, Path outDir, RunnerChoice runner, OutputFlags flags, PrintStream progress,
                                  Consumer<Path> checkOutputs) throws IOException {
        long t0 = System.nanoTime();
        RunnerChoice.preloadBeam();
        SweepPlan plan = SweepPlan.prepare(SweepFile.load(sweepFile));
        plan.warningLines().forEach(w -> progress.println("servesim sweep: warning: " + w));
        if (!runner.inProcess()) {
            FlinkMasterProbe.check(runner.flinkMaster());
        }
        Path dir = (outDir != null ? outDir : Path.of("out", plan.spec().name())).toAbsolutePath().normalize();
        OutputDir.refuseNested(dir, "sweep");
        String command = "sweep " + ShellWord.quote(sweepFile.toString()) + runner.flags() + " --output "
                + ShellWord.quote(dir.toString());
        Invocation invocation = new Invocation(command + (flags.resume() ? " --resume" : flags.overwrite() ? " --overwrite" : ""),
                launcher() + " " + command + " --resume", false);
        return run(plan, dir, runner, flags, progress, invocation, checkOutputs, t0);
    }

    /**
     * Starts the runner's set-up for sweeps this process is about to run from cells built in memory
     * ({@link #run(SweepPlan, Path, RunnerChoice, OutputFlags, PrintStream, Invocation)}): Beam's options factory
     * loads in the background, and a remote Flink master is checked once, before anything is written.
     */
    public static void prepareRunner(RunnerChoice runner) {
        RunnerChoice.preloadBeam();
        if (!runner.inProcess()) {
            FlinkMasterProbe.check(runner.flinkMaster());
        }
    }

    /**
     * Runs the validated cells of {@code plan} (built in memory, not read from a sweep file: a round of a capacity
     * plan) into {@code dir}, as a sweep file's are run: the same output rules, checkpoints, pipeline and commit.
     * Call {@link #prepareRunner} once first.
     */
    public static SweepResult run(SweepPlan plan, Path dir, RunnerChoice runner, OutputFlags flags, PrintStream progress,
                                  Invocation invocation) throws IOException {
        return run(plan, dir, runner, flags, progress, invocation, d -> { }, System.nanoTime());
    }

    private static SweepResult run(SweepPlan plan, Path dir, RunnerChoice runner, OutputFlags flags, PrintStream progress,
                                   Invocation invocation, Consumer<Path> checkOutputs, long t0) throws IOException {
        SweepLayout layout = new SweepLayout(plan);
        // every check before the lock is taken, so a refused sweep leaves the folder as it was (no _LOCK either)
        OutputLock.refuseIfHeld(dir);
        OutputDir.inspect(dir, layout, flags.overwrite(), flags.resume());
        checkOutputs.accept(dir);
        boolean existed = Files.exists(dir);
        OutputLock lock = lock(dir, invocation.command(), progress);
        try {
            return run(plan, layout, dir, lock, runner, flags, progress, invocation, t0);
        } finally {
            lock.close();
            if (!existed) {
                OutputLock.removeUnusedFolder(dir); // a sweep refused before it wrote anything leaves no folder behind
            }
        }
    }

    private static OutputLock lock(Path dir, String command, PrintStream progress) {
        return OutputLock.take(dir, launcher() + " " + command, progress, "sweep");
    }

    /** Whether {@code dir} holds the committed results of {@code plan}'s cells ({@code _SUCCESS}, the same cell ids). */
    public static boolean holdsResults(Path dir, SweepPlan plan) {
        return OutputManifest.read(dir, OutputManifest.Marker.SUCCESS).isPresent() && new SweepLayout(plan).describesNow(dir);
    }

    private static SweepResult run(SweepPlan plan, SweepLayout layout, Path dir, OutputLock lock, RunnerChoice runner,
                                   OutputFlags flags, PrintStream progress, Invocation invocation, long t0) throws IOException {
        String resumeCommand = invocation.resumeCommand();
        // again under the lock: the folder as it is now that no other writer can change it
        OutputDir.Verdict verdict = OutputDir.inspect(dir, layout, flags.overwrite(), flags.resume());
        int total = plan.cells().size();
        if (verdict.mode() == OutputDir.Mode.ALREADY_COMPLETE) {
            verdict.finishCommit();
            return SweepResult.alreadyComplete(dir, total);
        }
        Staged staged;
        try {
            staged = stage(verdict, plan, resumeCommand, progress);
        } catch (IOException | UncheckedIOException e) {
            throw new UsageException("cannot write the sweep output " + dir + ": " + ErrorReport.describe(e));
        }
        long validatedNs = System.nanoTime();
        if (!invocation.silent()) { // a round of a plan: the plan says what it runs
            progress.printf("sweep %s: %d cells validated in %.1f s; %srunning on %s%n", plan.spec().name(), total,
                    (validatedNs - t0) / 1e9, staged.replay().isEmpty() ? "" : staged.replay().size() + " finished before, "
                            + staged.toRun().size() + " to run; ", runner);
        }
        Path staging = verdict.staging();
        // at least: cells still running on their (daemon) threads may finish and be kept after the count
        try (InterruptGuard guard = InterruptGuard.install(progress, "sweep", dir, () -> "at least " + Checkpoint.count(staging)
                + " finished cells are kept in " + staging, verdict.previousComplete(), resumeCommand, lock, invocation.silent())) {
            List<Dataset> written;
            PipelineResult result;
            String key = UUID.randomUUID().toString();
            try {
                Pipeline p = Pipeline.create(runner.options("servesim-sweep-" + plan.spec().name()));
                written = SweepPipeline.build(p, plan, staged.toRun(), staged.replay(), staging, Checkpoint.dir(staging), key, runner);
                if (!runner.inProcess()) {
                    progress.println("sweep: cells run on the Flink cluster at " + runner.flinkMaster()
                            + "; progress is shown in its web UI (http://" + runner.flinkMaster() + ")");
                }
                try (SweepProgress bar = runner.inProcess() ? SweepProgress.start(key, staged.toRun().size(), progress, 2000) : null) {
                    result = p.run();
                    result.waitUntilFinish();
                }
            } catch (RuntimeException e) {
                throw new SweepFailedException("the pipeline failed" + (runner.inProcess() ? "" : " on the Flink cluster at "
                        + runner.flinkMaster()) + "; " + Checkpoint.count(staging) + " finished cells are kept in " + staging
                        + "; finish the sweep with: " + resumeCommand, e);
            }
            long ranNs = System.nanoTime();
            long completed = counter(result, "cells_completed") + staged.replay().size();
            long failed = counter(result, "cells_failed");
            EmptyDatasets.fill(staging, written, DatasetSchemas.forAxes(plan.spec().axisNames()));
            Map<Dataset, Long> rows = SweepResults.rowCounts(staging, written);
            String lost = missingCells(total, rows);
            if (lost != null) {
                throw new SweepFailedException("the pipeline ended but its output is incomplete: " + lost + " (the runner"
                        + " lost rows; its log above may say why, e.g. an OutOfMemoryError outside any cell); nothing was"
                        + " committed; " + Checkpoint.count(staging) + " finished cells are kept in " + staging
                        + "; finish the sweep with: " + resumeCommand, null);
            }
            String table = SweepResults.table(staging, plan.spec().axisNames());
            SweepSidecars.writeSummary(staging, summary(plan, runner, dir, total, completed, failed,
                    staged.replay().size(), rows, t0, validatedNs, ranNs));
            List<String> fresh = OutputCommit.sweepFiles(staging, written);
            guard.committing(() -> OutputCommit.commit(staging, dir, fresh, verdict.ownedFiles(), "sweep",
                    SweepSidecars.SWEEP));
            return new SweepResult(plan.spec().name(), dir, false, written, rows, table, total, completed, failed,
                    staged.replay().size(), (ranNs - validatedNs) / 1e9);
        }
    }

    /**
     * The command that runs servesim, for the commands a sweep (or a plan) tells the user to run: as the
     * launcher was invoked ({@code scripts/servesim} sets {@code servesim.command} to its own
     * {@code $0}), else {@code servesim}.
     */
    public static String launcher() {
        return System.getProperty("servesim.command", "servesim");
    }

    /**
     * Why the datasets cannot be the whole sweep, or null when they can: every one of the sweep's
     * {@code total} cells leaves exactly one row, in {@code cells} when it finished (or was
     * replayed on resume) and in {@code errors} when it failed. A runner that drops a bundle's
     * output without failing the pipeline (the DirectRunner 2.62 after an {@code OutOfMemoryError}
     * in its own code ended "successfully" with every dataset empty) is caught here, before
     * anything is committed, rather than leaving results that look complete.
     */
    static String missingCells(int total, Map<Dataset, Long> rows) {
        long finished = rows.getOrDefault(Dataset.CELLS, 0L);
        long failed = rows.getOrDefault(Dataset.ERRORS, 0L);
        if (finished + failed == total) {
            return null;
        }
        return "the sweep has " + total + " cells, each of which leaves one row in cells or errors, but cells holds "
                + finished + " rows and errors " + failed;
    }

    /**
     * The cells to run now and the finished cells' checkpoint files to read back.
     *
     * @param toRun  cells without a checkpoint
     * @param replay checkpoint files of finished cells (absolute paths)
     */
    private record Staged(List<Cell> toRun, List<String> replay) {
    }

    /**
     * Prepares the staging folder: a fresh one (with {@code _INCOMPLETE} in the output directory
     * when there are no earlier complete results to keep), or, on resume, the interrupted one with
     * its runner files cleared and its sound checkpoints and {@code _SWEEP.yaml} kept (a damaged checkpoint is reported and its cell runs again). Whenever the folder
     * holds anything but {@code _SWEEP.yaml}, it holds a whole {@code _SWEEP.yaml}, so an
     * interruption at any instant leaves a folder the next run recognizes as this sweep's.
     */
    private static Staged stage(OutputDir.Verdict v, SweepPlan plan, String resumeCommand, PrintStream err)
            throws IOException {
        Path staging = v.staging();
        Files.createDirectories(v.dir());
        if (v.mode() == OutputDir.Mode.RESUME) {
            try (Stream<Path> entries = Files.list(staging)) {
                for (Path e : entries.toList()) {
                    String name = e.getFileName().toString();
                    // kept: the finished cells, and the grid they belong to (rewritten whole below)
                    if (!name.equals(Checkpoint.DIRECTORY) && !name.equals(SweepSidecars.SWEEP)) {
                        OutputCommit.deleteTree(e);
                    }
                }
            }
        } else if (v.discardStaging()) {
            OutputCommit.deleteTree(staging);
        }
        // _SWEEP.yaml first: a staging folder that holds anything else also says which grid it is
        Files.createDirectories(staging);
        SweepSidecars.writeSweep(staging, plan);
        Files.createDirectories(Checkpoint.dir(staging));
        if (!v.previousComplete()) {
            Set<String> owned = new HashSet<>(v.ownedFiles());
            owned.remove(OutputManifest.Marker.INCOMPLETE.file);
            OutputManifest.incomplete("sweep " + plan.spec().name() + " is running, or was interrupted or failed: its finished"
                    + " cells are kept in " + OutputDir.STAGING + "/" + Checkpoint.DIRECTORY + "; finish it with: " + resumeCommand,
                    owned).write(v.dir());
        }
        List<Path> finished = v.mode() == OutputDir.Mode.RESUME
                ? Checkpoint.sound(Checkpoint.files(Checkpoint.dir(staging)), err) : List.of();
        Set<String> done = new HashSet<>();
        finished.forEach(f -> done.add(Checkpoint.cellId(f)));
        List<Cell> toRun = plan.cells().stream().filter(c -> !done.contains(c.cellId())).toList();
        return new Staged(toRun, finished.stream().map(f -> f.toAbsolutePath().toString()).toList());
    }

    private static long counter(PipelineResult result, String name) {
        MetricQueryResults q = result.metrics().queryMetrics(MetricsFilter.builder()
                .addNameFilter(MetricNameFilter.named(RunCellFn.METRICS, name)).build());
        long sum = 0;
        for (MetricResult<Long> c : q.getCounters()) {
            sum += c.getAttempted();
        }
        return sum;
    }

    private static Map<String, Object> summary(SweepPlan plan, RunnerChoice runner, Path dir, int total, long completed,
                                               long failed, int resumed, Map<Dataset, Long> rows, long t0,
                                               long validatedNs, long ranNs) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sweep", plan.spec().name());
        m.put("runner", runner.toString());
        m.put("parallelism", runner.effectiveParallelism());
        m.put("cells", total);
        m.put("cells_completed", completed);
        m.put("cells_failed", failed);
        m.put("cells_resumed", resumed);
        Map<String, Object> counts = new LinkedHashMap<>();
        rows.forEach((d, n) -> counts.put(d.directory(), n));
        m.put("rows", counts);
        long endNs = System.nanoTime();
        m.put("validate_wall_s", (validatedNs - t0) / 1e9);
        m.put("pipeline_wall_s", (ranNs - validatedNs) / 1e9);
        m.put("total_wall_s", (endNs - t0) / 1e9);
        m.put("cells_per_s", (completed - resumed) / Math.max((ranNs - validatedNs) / 1e9, 1e-9));
        m.put("output_dir", dir.toString());
        return m;
    }
}
