package io.servesim.cli;

import io.servesim.exit.ErrorReport;
import io.servesim.compare.CompareJob;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code servesim compare --sim CELLS --real CSV --on AXES --metrics METRICS [--output DIR]}: the
 * flags of {@link CompareJob}, which joins a sweep's simulated cells with measured rows on the
 * {@code --on} columns, prints per metric how well the simulation ranks and predicts the
 * measurements (Spearman's rho, Kendall's tau-b, pairwise ordering accuracy, MAPE) and writes the
 * same to {@code DIR/compare.parquet} ({@code schemas/compare.avsc}). Keys found
 * on one side only are listed on stderr and in the output. Writes to the command line's out and err
 * writers. Exit 0 on success, 2 for a bad option or input (missing file or column, value that is
 * not a number, empty join, an output directory that cannot be written: checked before reading), 1 when
 * writing fails; errors are one line ({@link io.servesim.exit.ErrorReport}).
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
            description = "metric columns to compare, comma-separated, e.g. ttft_p99_ms,e2e_mean_ms (the cells/ columns:"
                    + " servesim metrics)")
    List<String> metrics;

    @Option(names = "--output", paramLabel = "DIR",
            description = "directory for compare.parquet (default: compare/ beside --sim)")
    Path output;

    @Option(names = "--overwrite", description = "replace compare.parquet if it exists (by default an existing file is"
            + " refused before any work)")
    boolean overwrite;

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
        return CompareJob.run(sim, real, on, metrics, output, overwrite, out, err);
    }
}
