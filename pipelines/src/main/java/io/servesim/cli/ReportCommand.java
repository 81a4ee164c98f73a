package io.servesim.cli;

import io.servesim.exit.ErrorReport;
import io.servesim.exit.ExitCode;
import io.servesim.report.SweepReport;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code servesim report OUT_DIR [--out FILE] [--x AXIS] [--y AXIS] [--load AXIS]}: the flags of
 * {@link SweepReport}, which writes one self-contained HTML page of a finished sweep. Exit 0 on success, 2 for
 * a directory that is not a complete sweep output, an unknown axis (the valid ones listed) or an output path
 * that cannot be written (checked first), 1 when reading or writing fails.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Write a self-contained HTML report (charts, sortable table) of a finished sweep's Parquet output.")
public final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "OUT_DIR", description = "a finished sweep's output directory (holds _SUCCESS, cells/)")
    Path outDir;

    @Option(names = "--out", paramLabel = "FILE", description = "the HTML file (default OUT_DIR/report.html)")
    Path out;

    @Option(names = "--x", paramLabel = "AXIS", description = "x axis of the SLO and goodput heatmaps (default the first axis)")
    String x;

    @Option(names = "--y", paramLabel = "AXIS", description = "y axis of the heatmaps (default the next axis)")
    String y;

    @Option(names = "--load", paramLabel = "AXIS",
            description = "the load axis of the latency curves (default: the axis setting a rate or speed-up, else the first numeric one)")
    String load;

    @Override
    public Integer call() {
        return run(outDir, new SweepReport.Options(load, x, y), out, System.out, Main.errors(spec));
    }

    /** Writes the report and prints its path on {@code stdout}; returns the exit code. */
    static int run(Path outDir, SweepReport.Options options, Path out, PrintStream stdout, ErrorReport errors) {
        try {
            Path file = SweepReport.write(outDir, options, out);
            stdout.printf("%-9s %s%n", "report", file);
            return ExitCode.OK;
        } catch (IOException | SQLException | RuntimeException e) {
            return errors.report(e);
        }
    }
}
