package io.servesim.compare;

import io.servesim.cli.Main;
import io.servesim.cli.OutputPath;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code servesim compare --sim CELLS --real CSV --on AXES --metrics METRICS [--output DIR]}: joins a
 * sweep's simulated cells ({@link SimCells}) with measured rows ({@link RealCsv}) on the {@code --on}
 * columns ({@link Comparison}), prints per metric how well the simulation ranks and predicts the
 * measurements ({@link RankAgreement}: Spearman's rho, Kendall's tau-b, pairwise ordering accuracy,
 * MAPE) and writes the same to {@code DIR/compare.parquet} ({@code schemas/compare.avsc}). Keys found
 * on one side only are listed on stderr and in the output. Writes to the command line's out and err
 * writers. Exit 0 on success, 2 for a bad option or input (missing file or column, value that is
 * not a number, empty join, an output directory that cannot be written: checked before reading), 1 when
 * writing fails; errors are one line ({@link io.servesim.cli.ErrorReport}).
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Rank agreement of simulated sweep cells with real measurements: Spearman rho, Kendall tau-b, "
                + "pairwise ordering accuracy and MAPE per metric.")
public final class CompareCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--sim", paramLabel = "CELLS", required = true,
            description = "simulated cells: a Parquet file or a directory of *.parquet files (a sweep's cells/)")
    Path sim;

    @Option(names = "--real", paramLabel = "CSV", required = true,
            description = "measurements: CSV with a header holding the --on and --metrics columns")
    Path real;

    @Option(names = "--on", paramLabel = "COLUMN", split = ",", required = true,
            description = "columns to join on (axis labels), comma-separated")
    List<String> on;

    @Option(names = "--metrics", paramLabel = "COLUMN", split = ",", required = true,
            description = "metric columns to compare, comma-separated, e.g. ttft_p99_ms,e2e_mean_ms")
    List<String> metrics;

    @Option(names = "--output", paramLabel = "DIR",
            description = "directory for compare.parquet (default: compare/ beside --sim)")
    Path output;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            return run(out, err);
        } catch (IOException | RuntimeException e) {
            return Main.errors(spec).report(e);
        } finally {
            out.flush();
            err.flush();
        }
    }

    private int run(PrintWriter out, PrintWriter err) throws IOException {
        List<String> onColumns = names("--on", on);
        List<String> metricColumns = names("--metrics", metrics);
        for (String m : metricColumns) {
            if (onColumns.contains(m)) {
                throw new CompareInputException("column '" + m + "' is in both --on and --metrics");
            }
        }
        Path outputDir = output != null ? output : defaultOutput(sim);
        OutputPath.checkDirectory("--output", outputDir);
        KeyedMetrics simRows = SimCells.read(sim, onColumns, metricColumns);
        KeyedMetrics realRows = RealCsv.read(real, onColumns, metricColumns);
        Comparison join = new Comparison(simRows, realRows);
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
        Path file = outputDir.resolve("compare.parquet");
        CompareParquet.write(file, rows, onColumns, join, sim, real);
        err.println("servesim compare: wrote " + file);
        return 0;
    }

    /** {@code compare/} beside the sim file or directory: {@code out/x/cells} gives {@code out/x/compare}. */
    static Path defaultOutput(Path sim) {
        Path parent = sim.toAbsolutePath().normalize().getParent();
        return (parent != null ? parent : sim.toAbsolutePath()).resolve("compare");
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
