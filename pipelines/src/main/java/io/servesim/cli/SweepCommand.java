package io.servesim.cli;

import io.servesim.config.ConfigException;
import io.servesim.exit.ErrorReport;
import io.servesim.exit.ExitCode;
import io.servesim.report.ReportFile;
import io.servesim.report.SweepReport;
import io.servesim.sweep.Dataset;
import io.servesim.sweep.RunnerChoice;
import io.servesim.sweep.SweepJob;
import io.servesim.sweep.SweepPlan;
import io.servesim.sweep.SweepResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code servesim sweep FILE}: run a sweep of simulations as a Beam pipeline into Parquet datasets. */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = "Run a sweep (grid of configs x seeds) as a Beam pipeline; Parquet datasets under out/<sweep name>/.")
public final class SweepCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "sweep YAML (e.g. sweeps/quickstart.yaml)")
    Path file;

    @Mixin
    RunnerOptions runnerOptions = new RunnerOptions();

    @Option(names = "--report", description = "also write the HTML report (servesim report) to <output>/report.html")
    boolean report;

    @Override
    public Integer call() {
        ErrorReport errors = Main.errors(spec);
        try {
            return run(file, runnerOptions.output, runnerOptions.choice(), runnerOptions.flags(), report, System.out, System.err,
                    errors);
        } catch (ConfigException e) {
            return errors.report(e);
        }
    }

    /**
     * Runs the sweep ({@link SweepJob}, progress on {@code err}) and prints its result: the table and
     * the datasets' paths on {@code out}, the cells' count on {@code err}; returns the exit code (1 when
     * cells failed at run time or the pipeline failed, 2 for a bad sweep or output directory).
     */
    public static int run(Path file, Path output, RunnerChoice runner, SweepJob.OutputFlags flags, PrintStream out,
                          PrintStream err, ErrorReport errors) {
        return run(file, output, runner, flags, false, out, err, errors);
    }

    /**
     * As {@link #run(Path, Path, RunnerChoice, SweepJob.OutputFlags, PrintStream, PrintStream, ErrorReport)}; with
     * {@code report}, also writes the HTML report ({@link SweepReport}) to {@code <output>/report.html} once the
     * datasets are in place (also when some cells failed: the page shows the others).
     */
    public static int run(Path file, Path output, RunnerChoice runner, SweepJob.OutputFlags flags, boolean report,
                          PrintStream out, PrintStream err, ErrorReport errors) {
        SweepResult r;
        try {
            r = SweepJob.run(file, output, runner, flags, err, report
                    ? dir -> ReportFile.check("--report", dir.resolve(SweepReport.DEFAULT_FILE)) : dir -> { });
        } catch (ConfigException e) {
            return errors.report("invalid sweep " + file, e);
        } catch (SweepPlan.InvalidCellsException e) {
            return errors.report(file.toString(), e);
        } catch (IOException | RuntimeException e) {
            return errors.report(e);
        }
        if (r.alreadyComplete()) {
            err.println("servesim sweep: nothing to resume: " + r.dir() + " already holds this sweep's complete results");
            return ExitCode.OK;
        }
        out.print(r.table());
        out.println();
        for (Dataset d : r.written()) {
            out.printf("%-9s %s (%d rows)%n", d.directory(), r.path(d), r.rows().get(d));
        }
        out.printf("%-9s %s%n%-9s %s%n", "sweep", r.sweepFile(), "summary", r.summaryFile());
        if (report) {
            int reported = ReportCommand.run(r.dir(), SweepReport.Options.DEFAULTS, null, out, errors);
            if (reported != ExitCode.OK) {
                return reported;
            }
        } else {
            try {
                if (ReportFile.deleteStale(r.dir().resolve(SweepReport.DEFAULT_FILE))) {
                    err.println("servesim sweep: removed " + r.dir().resolve(SweepReport.DEFAULT_FILE) + ", the report of the"
                            + " results this sweep replaced (servesim report " + r.dir() + " writes one of these)");
                }
            } catch (IOException e) {
                return errors.report("cannot remove the report of the replaced results", e);
            }
        }
        boolean ranNone = r.completed() - r.resumed() + r.failed() == 0; // a resume whose cells had all finished
        err.printf("sweep %s: %d/%d cells completed in %.1f s (%s)%n", r.name(), r.completed(), r.cells(),
                r.pipelineSeconds(), ranNone ? "all had finished before; their kept rows were written"
                        : String.format("%.2f cells/s", r.cellsPerSecond()));
        if (r.failed() > 0) {
            err.printf("servesim sweep: %d of %d cells failed at run time; see %s%n", r.failed(), r.cells(),
                    r.path(Dataset.ERRORS));
            return ExitCode.RUNTIME_ERROR;
        }
        return ExitCode.OK;
    }
}
