package io.servesim.sweep;

import io.servesim.cli.Main;
import io.servesim.config.ConfigException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;

/**
 * {@code servesim sweep}, the work behind the command: bind the sweep file, validate every cell
 * (exit 2 listing all invalid ones), clear the previous datasets, run the pipeline with progress on
 * stderr, then read the cells back and print the result table and output paths on stdout. Exit 1
 * when cells failed at run time (their {@code errors} rows say why; the other cells are written).
 */
public final class SweepJob {
    private SweepJob() {
    }

    /** Runs {@code sweepFile} into {@code outDir} (null = {@code out/<name>/}); returns the exit code. */
    public static int run(Path sweepFile, Path outDir, RunnerChoice runner, PrintStream out, PrintStream err) {
        long t0 = System.nanoTime();
        RunnerChoice.preloadBeam();
        SweepPlan plan;
        try {
            plan = SweepPlan.prepare(SweepFile.load(sweepFile));
        } catch (ConfigException e) {
            err.println("servesim: invalid sweep " + sweepFile + ":");
            e.problems().forEach(p -> err.println("  " + p));
            return Main.CONFIG_ERROR;
        } catch (SweepPlan.InvalidCellsException e) {
            err.println("servesim: sweep " + sweepFile + ": " + e.getMessage());
            return Main.CONFIG_ERROR;
        }
        Path dir = outDir != null ? outDir : Path.of("out", plan.spec().name());
        int total = plan.cells().size();
        long validatedNs = System.nanoTime();
        err.printf("sweep %s: %d cells validated in %.1f s; running on %s%n", plan.spec().name(), total,
                (validatedNs - t0) / 1e9, runner);
        List<Dataset> written;
        PipelineResult result;
        String key = UUID.randomUUID().toString();
        try {
            prepareDirectory(dir);
            SweepSidecars.writeSweep(dir, plan);
            Pipeline p = Pipeline.create(runner.options("servesim-sweep-" + plan.spec().name()));
            written = SweepPipeline.build(p, plan, dir.toAbsolutePath(), key, runner);
            if (!runner.inProcess()) {
                err.println("sweep: cells run on the Flink cluster at " + runner.flinkMaster()
                        + "; progress is shown in its web UI (http://" + runner.flinkMaster() + ")");
            }
            try (SweepProgress progress = runner.inProcess() ? SweepProgress.start(key, total, err, 2000) : null) {
                result = p.run();
                result.waitUntilFinish();
            }
        } catch (IOException | UncheckedIOException e) {
            err.println("servesim: sweep output " + dir + ": " + e.getMessage());
            return Main.RUNTIME_ERROR;
        } catch (RuntimeException e) {
            err.println("servesim: sweep pipeline failed: " + e);
            return Main.RUNTIME_ERROR;
        }
        long ranNs = System.nanoTime();
        long completed = counter(result, "cells_completed");
        long failed = counter(result, "cells_failed");
        try {
            EmptyDatasets.fill(dir, written, DatasetSchemas.forAxes(plan.spec().axisNames()));
            Map<Dataset, Long> rows = SweepResults.rowCounts(dir, written);
            String table = SweepResults.table(dir, plan.spec().axisNames());
            SweepSidecars.writeSummary(dir, summary(plan, runner, dir, total, completed, failed, rows, t0, validatedNs, ranNs));
            out.print(table);
            out.println();
            for (Dataset d : written) {
                out.printf("%-9s %s (%d rows)%n", d.directory(), dir.resolve(d.directory()), rows.get(d));
            }
            out.printf("%-9s %s%n%-9s %s%n", "sweep", dir.resolve(SweepSidecars.SWEEP), "summary", dir.resolve(SweepSidecars.SUMMARY));
        } catch (IOException | java.sql.SQLException e) {
            err.println("servesim: reading back " + dir + ": " + e.getMessage());
            return Main.RUNTIME_ERROR;
        }
        double runS = (ranNs - validatedNs) / 1e9;
        err.printf("sweep %s: %d/%d cells completed in %.1f s (%.2f cells/s)%n", plan.spec().name(), completed, total,
                runS, completed / Math.max(runS, 1e-9));
        if (failed > 0) {
            err.printf("servesim: %d of %d cells failed at run time; see %s%n", failed, total, dir.resolve(Dataset.ERRORS.directory()));
            return Main.RUNTIME_ERROR;
        }
        return 0;
    }

    /** Creates {@code dir} and removes datasets a previous run left (stale shards would mix in). */
    private static void prepareDirectory(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (Dataset d : Dataset.values()) {
            Path sub = dir.resolve(d.directory());
            if (Files.exists(sub)) {
                try (Stream<Path> walk = Files.walk(sub)) {
                    for (Path f : walk.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(f);
                    }
                }
            }
        }
        Files.deleteIfExists(dir.resolve(SweepSidecars.SUMMARY));
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
                                               long failed, Map<Dataset, Long> rows, long t0, long validatedNs, long ranNs) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sweep", plan.spec().name());
        m.put("runner", runner.toString());
        m.put("parallelism", runner.effectiveParallelism());
        m.put("cells", total);
        m.put("cells_completed", completed);
        m.put("cells_failed", failed);
        Map<String, Object> counts = new LinkedHashMap<>();
        rows.forEach((d, n) -> counts.put(d.directory(), n));
        m.put("rows", counts);
        long endNs = System.nanoTime();
        m.put("validate_wall_s", (validatedNs - t0) / 1e9);
        m.put("pipeline_wall_s", (ranNs - validatedNs) / 1e9);
        m.put("total_wall_s", (endNs - t0) / 1e9);
        m.put("cells_per_s", completed / Math.max((ranNs - validatedNs) / 1e9, 1e-9));
        m.put("output_dir", dir.toAbsolutePath().toString());
        return m;
    }
}
