package io.servesim.cli;

import io.servesim.config.ConfigException;
import io.servesim.evolve.EvolveFile;
import io.servesim.evolve.EvolveJob;
import io.servesim.evolve.EvolveSpec;
import io.servesim.exit.ErrorReport;
import io.servesim.exit.ExitCode;
import io.servesim.sweep.RoundsLayout;
import io.servesim.sweep.RunnerChoice;
import io.servesim.sweep.ShellWord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code servesim evolve EVOLVE.yaml}: CMA-ES over the numeric parameters of policy templates, each generation one sweep
 * ({@link EvolveJob}); a summary on stdout, the generations, the comparison with the baselines, the best policy and a
 * report under {@code out/<name>/}.
 */
@Command(name = "evolve", mixinStandardHelpOptions = true,
        description = "Policy search: CMA-ES over policy template parameters (weights, bucket sizes, autoscaler thresholds),"
                + " each generation a sweep on training workloads; the best reported on held-out ones too. Results under"
                + " out/<name>/: generations/, comparison/, best-policy.yaml (--policy-config), report.html.")
public final class EvolveCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "EVOLVE", description = "evolve YAML (e.g. sweeps/evolve/routing-weights.yaml)")
    Path file;

    @Mixin
    RunnerOptions runnerOptions = new RunnerOptions();

    @Override
    public Integer call() {
        ErrorReport errors = Main.errors(spec);
        RunnerChoice runner;
        try {
            runner = runnerOptions.choice(); // a bad runner flag is the flag's error, not the evolve file's
        } catch (ConfigException e) {
            return errors.report(e);
        }
        EvolveSpec search;
        try {
            search = EvolveFile.load(file);
        } catch (ConfigException e) {
            return errors.report("invalid evolve file " + file, e);
        }
        EvolveJob.Run r;
        try {
            r = EvolveJob.run(search, "evolve " + ShellWord.quote(file.toString()), runnerOptions.output, runner, runnerOptions.flags(), System.err);
        } catch (ConfigException e) {
            return errors.report("invalid evolve file " + file, e);
        } catch (IOException | RuntimeException e) {
            return errors.report(e);
        }
        if (r.alreadyComplete()) {
            System.err.println("servesim evolve: nothing to resume: " + r.dir() + " already holds this search's complete"
                    + " results; they said:");
        } else {
            System.err.printf("evolve %s: %d runs (%d run now) in %.1f s%n", search.name(), r.cells(), r.cellsRun(),
                    r.wallSeconds());
        }
        System.out.print(r.summary());
        if (!r.unfinished().isEmpty()) {
            System.err.println("servesim evolve: the comparison is incomplete, runs failed: " + String.join("; ",
                    r.unfinished()) + " (error rows under " + r.dir().resolve(RoundsLayout.ROUNDS) + "/*/errors/;"
                    + " every output is written)");
            return ExitCode.RUNTIME_ERROR;
        }
        return ExitCode.OK;
    }
}
