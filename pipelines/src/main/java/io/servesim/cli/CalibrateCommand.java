package io.servesim.cli;

import io.servesim.cli.Main;
import io.servesim.exit.ErrorReport;
import io.servesim.fidelity.Calibrator;
import io.servesim.fidelity.CoefficientsFile;
import io.servesim.fidelity.RealRun;
import io.servesim.io.StagedOutputs;
import io.servesim.latency.GpuCatalog;
import io.servesim.latency.ModelCatalog;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code servesim calibrate RUN_DIR --out coeffs.yaml}: fits blackbox coefficients to a real vLLM run
 * ({@link Calibrator}), writes them in the blackbox coefficient format ({@link CoefficientsFile}) and
 * prints the fit error and the replay with the fitted coefficients. The output path is checked before the
 * fit. Exit 0 on success, 2 for a bad or incomplete run directory, option or output path, 1 when the fit or
 * the write fails (one line, {@link ErrorReport}). A {@code --model} that is not bundled is accepted (the
 * blackbox fit uses no architecture, the id labels the coefficients) with a note saying so.
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = "Fit blackbox latency coefficients to a real vLLM run and write them as YAML.")
public final class CalibrateCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "RUN_DIR", description = "run directory: meta.json, requests.jsonl, workload*.jsonl")
    Path runDir;

    @Option(names = {"-o", "--out"}, paramLabel = "FILE", required = true, description = "coefficients YAML to write")
    Path out;

    @Option(names = "--hardware", paramLabel = "GPU", description = "GPU, required when meta.json has no hardware.device_name")
    String hardware;

    @Option(names = "--model", paramLabel = "ID", description = "simulate this model id or config.json instead of meta.json model")
    String model;

    @Option(names = "--gpus", paramLabel = "FILE", description = "GPU rows in gpus.yaml's format (datasheet numbers) that"
            + " meta.json hardware.device_name or --hardware may name")
    Path gpus;

    @Option(names = "--holdout", paramLabel = "SHARE", description = "share of the run's last requests (by arrival) the fit"
            + " never sees; their error is reported as out-of-sample (default 0.5; 0 fits on every request)")
    double holdout = 0.5;

    @Option(names = "--overwrite", description = "replace --out if it exists (by default an existing file is refused)")
    boolean overwrite;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        return run(runDir, out, hardware, model, gpus, holdout, overwrite, System.out, System.err, Main.debug(spec));
    }

    /** As {@link #run(Path, Path, String, String, Path, double, boolean, PrintStream, PrintStream, boolean)}, never replacing
     * {@code out}, on the bundled GPUs. */
    public static int run(Path runDir, Path out, String hardware, String model, double holdout, PrintStream stdout,
                          PrintStream stderr, boolean debug) {
        return run(runDir, out, hardware, model, null, holdout, false, stdout, stderr, debug);
    }

    /**
     * Fits {@code runDir} on all but the last {@code holdout} share of its requests and writes the
     * coefficients to {@code out} (an existing one only if {@code overwrite}); {@code gpusFile}, when given, adds a user's
     * GPU rows to the bundled ones; {@code debug} adds stack traces to errors.
     */
    public static int run(Path runDir, Path out, String hardware, String model, Path gpusFile, double holdout,
                          boolean overwrite, PrintStream stdout, PrintStream stderr, boolean debug) {
        try (StagedOutputs staged = StagedOutputs.start("calibrate", stderr)) {
            return run(runDir, out, hardware, model, gpusFile, holdout, overwrite, stdout, stderr, debug, staged);
        }
    }

    private static int run(Path runDir, Path out, String hardware, String model, Path gpusFile, double holdout,
                           boolean overwrite, PrintStream stdout, PrintStream stderr, boolean debug, StagedOutputs staged) {
        ErrorReport errors = new ErrorReport("calibrate", stderr, debug);
        RealRun run;
        Calibrator.Fit fit;
        Path file;
        try {
            file = staged.stage("--out", out, overwrite);
        } catch (RuntimeException e) {
            return errors.report(e);
        }
        try {
            GpuCatalog gpus = gpusFile == null ? GpuCatalog.builtIn() : GpuCatalog.builtIn().withFile(gpusFile, "--gpus");
            run = RealRun.read(runDir);
            fit = Calibrator.fit(run, hardware, model, holdout, gpus);
        } catch (RuntimeException e) {
            return errors.report("cannot calibrate on " + runDir, e);
        }
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, CoefficientsFile.render(run, fit));
            staged.commit();
        } catch (Exception e) {
            return errors.report("cannot write " + out, e);
        }
        stdout.println("method: Nelder-Mead over ln(b0, b1, b2), minimising the mean squared log-ratio sim/real of every "
                + "request's TTFT, E2E and TPOT (alpha = 0)");
        stdout.println("fit: " + fit.describe());
        ReplayRealCommand.header(stdout, run, fit.replay());
        if (fit.heldOut() != null) {
            stdout.printf("out of sample: the last %d requests, which the fit never saw%n", fit.replay().rows().size() - fit.fitted());
            stdout.print(fit.heldOut().render());
            stdout.println("all requests:");
        }
        stdout.print(fit.replay().report().render());
        if (model != null && !model.strip().toLowerCase(Locale.ROOT).endsWith(".json") && ModelCatalog.builtIn().find(model).isEmpty()) {
            // The blackbox fit needs no architecture (the run gave num_gpu_blocks, or resolving would have failed).
            stderr.println("servesim calibrate: note: --model " + model + " is not a bundled model (bundled: "
                    + String.join(", ", ModelCatalog.builtIn().ids()) + "); the fit does not use an architecture: the KV "
                    + "capacity is the run's num_gpu_blocks and the id only labels the coefficients");
        }
        stderr.println("servesim calibrate: coefficients in " + out);
        return 0;
    }
}
