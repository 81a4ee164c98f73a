package io.servesim.compare;

import io.servesim.io.OutputPath;
import io.servesim.io.StagedOutputs;
import io.servesim.metrics.Column;
import io.servesim.metrics.Metric;
import io.servesim.metrics.MetricCatalog;
import io.servesim.metrics.Renamed;
import io.servesim.sweep.RoundsJob;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The work of {@code servesim compare}: joins a sweep's simulated cells ({@link SimCells}) with
 * measured rows ({@link RealCsv}) on the {@code --on} columns ({@link Comparison}), prints per
 * metric how well the simulation ranks and predicts the measurements ({@link RankAgreement}) and
 * writes the same to {@code DIR/compare.parquet} ({@link CompareParquet}), staged and renamed into place whole; an
 * existing {@code compare.parquet} is refused before any work unless {@code overwrite} ({@link StagedOutputs}). Keys
 * found on one side
 * only are listed on {@code err} and in the output. A metric is a numeric {@code cells/} column of the metric catalog,
 * named as the catalog names it. Bad input is a {@link CompareInputException}.
 */
public final class CompareJob {
    private CompareJob() {
    }

    /**
     * Compares {@code metrics} of the cells at {@code sim} with the CSV at {@code real}, joined on
     * {@code on}; writes {@code compare.parquet} into {@code output} (null: {@link #defaultOutput}), replacing an
     * existing one only if {@code overwrite}; returns the exit code (0).
     */
    public static int run(Path sim, Path real, List<String> on, List<String> metrics, Path output, boolean overwrite,
                          PrintWriter out, PrintWriter err) throws IOException {
        List<String> onColumns = names("--on", on);
        List<String> metricColumns = names("--metrics", metrics);
        for (String m : metricColumns) {
            if (onColumns.contains(m)) {
                throw new CompareInputException("column '" + m + "' is in both --on and --metrics");
            }
            checkMetric(m);
        }
        Path outputDir = output != null ? output : defaultOutput(sim);
        String simName = sim.toAbsolutePath().normalize().getParent() == null ? "sim"
                : sim.toAbsolutePath().normalize().getParent().getFileName().toString();
        RoundsJob.refuseInside(output != null ? "--output" : "the default --output (compare/ beside --sim)",
                outputDir.resolve("compare.parquet"), "write compare.parquet outside it",
                job -> "--output " + job.resolveSibling(job.getFileName() + "-" + simName + "-compare"));
        OutputPath.probeDirectory("--output", outputDir);
        try (StagedOutputs staged = StagedOutputs.start("compare", System.err)) {
            Path file = outputDir.resolve("compare.parquet");
            Path temp = staged.stage("--output", file, overwrite);
            compare(sim, real, onColumns, metricColumns, temp, out, err);
            staged.commit();
            err.println("servesim compare: wrote " + file);
        }
        return 0;
    }

    private static void compare(Path sim, Path real, List<String> onColumns, List<String> metricColumns, Path file,
                                PrintWriter out, PrintWriter err) throws IOException {
        KeyedMetrics simRows = SimCells.read(sim, onColumns, metricColumns);
        KeyedMetrics realRows = RealCsv.read(real, onColumns, metricColumns);
        Comparison join = new Comparison(simRows, realRows);
        if (realRows.repeatedKeys() > 0) {
            err.println("servesim compare: note: --real " + real + ": " + realRows.repeatedKeys() + " of " + realRows.keys().size()
                    + " keys have several rows (first: " + realRows.repeatedExample() + "); a key's metrics are the mean"
                    + " of its rows, as for repeated measurements; if they are different configurations, add the column"
                    + " that tells them apart to --on");
        }
        join.simOnly().forEach(k -> err.println("servesim compare: unmatched sim key (no measured row): " + k));
        join.realOnly().forEach(k -> err.println("servesim compare: unmatched real key (no simulated cell): " + k));
        if (join.joined().isEmpty()) {
            throw new CompareInputException("no key is on both sides (" + sim + ": " + simRows.keys().size() + " keys, "
                    + real + ": " + realRows.keys().size() + " keys, joined on " + String.join(", ", onColumns) + ")");
        }
        List<MetricComparison> rows = new ArrayList<>();
        for (int m = 0; m < metricColumns.size(); m++) {
            rows.add(join.compare(m, metricColumns.get(m)));
        }
        for (MetricComparison row : rows) {
            row.leftOutSimKeys().forEach(k -> err.println("servesim compare: " + row.metric() + ": sim key " + k
                    + " left out: no value (null: no request qualified, e.g. every request of the cell was dropped)"));
        }
        CompareReport.print(out, simRows, realRows, join, onColumns, rows);
        CompareParquet.write(file, rows, onColumns, join, sim, real);
    }

    /** {@code compare/} beside the sim file or directory: {@code out/x/cells} gives {@code out/x/compare}. */
    public static Path defaultOutput(Path sim) {
        Path parent = sim.toAbsolutePath().normalize().getParent();
        return (parent != null ? parent : sim.toAbsolutePath()).resolve("compare");
    }

    /** The metric columns of {@code cells/} (the catalog's numeric columns), which {@code --metrics} may name. */
    static final List<String> METRIC_COLUMNS = MetricCatalog.COLUMNS.stream().filter(c -> c.kind() != Metric.Kind.TEXT)
            .map(Column::name).toList();

    /** {@code m} is a numeric column of the metric catalog; a former name is refused naming the catalog's. */
    private static void checkMetric(String m) {
        if (METRIC_COLUMNS.contains(m)) {
            return;
        }
        throw new CompareInputException(Renamed.of(m, Renamed.Where.CELLS)
                .map(r -> "--metrics: '" + m + "' is now named '" + r.now() + "'")
                .orElse("--metrics: '" + m + "' is not a metric column of cells/ (servesim metrics lists them); valid: "
                        + String.join(", ", METRIC_COLUMNS)));
    }

    private static List<String> names(String option, List<String> raw) {
        Set<String> names = new LinkedHashSet<>();
        for (String name : raw) {
            String trimmed = name.trim();
            if (trimmed.isEmpty()) {
                throw new CompareInputException(option + ": empty column name in '" + String.join(",", raw) + "'");
            }
            if (!names.add(trimmed)) {
                throw new CompareInputException(option + ": column '" + trimmed + "' given twice");
            }
        }
        return List.copyOf(names);
    }
}
