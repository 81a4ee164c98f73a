package io.servesim.cli;

import io.servesim.engine.FrontEndSettings;
import io.servesim.exit.ErrorReport;
import io.servesim.exit.UsageException;
import io.servesim.fidelity.ExpertParallelRunCheck;
import io.servesim.fidelity.IngressFit;
import io.servesim.fidelity.LatencyValidation;
import io.servesim.fidelity.Sim2RealStudy;
import io.servesim.fidelity.Sim2RealTable;
import io.servesim.io.StagedOutputs;
import io.servesim.latency.GpuCatalog;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code servesim validate-latency [--data DIR] [--run RUN_DIR] [--run-hardware GPU] [--gpus FILE]
 * [--write-constants FILE [--overwrite]] [--study full|quick|none]}: fits the roofline's cross-GPU constants leave-one-GPU-out on the shared
 * measurements and prints, per held-out GPU, the median and p90 |error| of its step, GEMM and decode-attention times,
 * the GPUs without GEMM or step measurements (uncalibrated), and the real run's TTFT / TPOT / E2E mean errors with its
 * GPU held out
 * ({@link LatencyValidation}), then the expert-parallel MoE run's errors under the roofline and the profiled model
 * ({@link ExpertParallelRunCheck}, when the data directory holds it). {@code --gpus} adds a user's GPU rows (gpus.yaml's format) that
 * {@code --run-hardware} may name: a real run on such a GPU is replayed with the constants of every measured GPU. {@code --write-constants} writes the all-GPU fit in
 * the format of the bundled {@code roofline_constants.yaml}, which is how that file is produced. Then the sim-to-real
 * study's table ({@link Sim2RealStudy}, {@link Sim2RealTable}) of the experiments {@code --study} names, from
 * {@code DATA/validation/sim2real-trainval}, and with the full set the front end's ingress fitted on it
 * ({@link IngressFit}) beside the shipped default. Exit 0 on
 * success, 2 for a missing data directory or a bad output path, 1 when the fit or the study fails.
 */
@Command(name = "validate-latency", mixinStandardHelpOptions = true,
        description = "Leave-one-GPU-out validation of the roofline model's cross-GPU constants on the shipped measurements,"
                + " then the sim-to-real study's table of the roofline's and its peers' errors against real vLLM runs and the"
                + " front end's ingress fitted on it.")
public final class ValidateLatencyCommand implements Callable<Integer> {
    /** The sim-to-real study's shipped facts, under the data directory. */
    static final String STUDY_DIR = "validation/sim2real-trainval";

    @Option(names = "--data", paramLabel = "DIR", description = "measured data (profiling/, hardware/, validation/);"
            + " default: the data this repository ships, sweeps/data")
    Path data;

    @Option(names = "--run", paramLabel = "RUN_DIR", description = "real vLLM run to replay with its GPU held out "
            + "(default DATA/validation/vllm_rtxpro6000_llama31_8b)")
    Path run;

    @Option(names = "--run-hardware", paramLabel = "GPU", defaultValue = "RTXPRO6000", description = "GPU of --run; default ${DEFAULT-VALUE}")
    String runHardware;

    @Option(names = "--gpus", paramLabel = "FILE", description = "GPU rows in gpus.yaml's format (datasheet numbers) that"
            + " --run-hardware may name")
    Path gpus;

    @Option(names = "--write-constants", paramLabel = "FILE", description = "write the all-GPU fit as roofline_constants.yaml")
    Path constantsOut;

    @Option(names = "--overwrite", description = "replace --write-constants if it exists (by default an existing file is"
            + " refused)")
    boolean overwrite;

    @Option(names = "--study", paramLabel = "SET", defaultValue = "full", description = "the sim-to-real study's table"
            + " (DATA/validation/sim2real-trainval): full (its 13 trainval experiments), quick (Qwen2.5-7B roleplay and"
            + " Llama-2-7B codegen) or none; default ${DEFAULT-VALUE}")
    StudySet study;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (run != null && !Files.isDirectory(run)) {
            // the default run is optional (a data folder without validation/ has none); one asked for is not
            return Main.errors(spec).report(new UsageException("--run: " + run + ": not a directory (a recorded vLLM run:"
                    + " meta.json, requests.jsonl, ...)"));
        }
        Path dataDir = data != null ? data : ShippedData.dir();
        Path runDir = run != null ? run : dataDir.resolve("validation/vllm_rtxpro6000_llama31_8b");
        return run(dataDir, runDir, runHardware, gpus, constantsOut, overwrite, study, System.out, System.err,
                Main.debug(spec));
    }

    /**
     * Validates on {@code data}; {@code gpusFile} (or null) adds GPU rows; {@code constantsOut}, when given,
     * receives the all-GPU constants (an existing file only if {@code overwrite}; written whole or not at all); then
     * the sim-to-real study's {@code study} experiments are simulated.
     */
    public static int run(Path data, Path runDir, String runHardware, Path gpusFile, Path constantsOut, boolean overwrite,
                          StudySet study, PrintStream stdout, PrintStream stderr, boolean debug) {
        try (StagedOutputs staged = StagedOutputs.start("validate-latency", stderr)) {
            return run(data, runDir, runHardware, gpusFile, constantsOut, overwrite, study, stdout, stderr, debug, staged);
        }
    }

    private static int run(Path data, Path runDir, String runHardware, Path gpusFile, Path constantsOut, boolean overwrite,
                           StudySet study, PrintStream stdout, PrintStream stderr, boolean debug, StagedOutputs staged) {
        ErrorReport errors = new ErrorReport("validate-latency", stderr, debug);
        Path constantsFile = null;
        if (constantsOut != null) {
            try {
                constantsFile = staged.stage("--write-constants", constantsOut, overwrite);
            } catch (RuntimeException e) {
                return errors.report(e);
            }
        }
        LatencyValidation v;
        try {
            GpuCatalog catalog = gpusFile == null ? GpuCatalog.builtIn() : GpuCatalog.builtIn().withFile(gpusFile, "--gpus");
            v = LatencyValidation.run(data, runDir, runHardware, catalog);
        } catch (RuntimeException e) {
            return errors.report("cannot validate on " + data, e);
        }
        stdout.print(v.render());
        try {
            String ep = ExpertParallelRunCheck.render(data);
            if (!ep.isEmpty()) {
                stdout.print("\n" + ep);
            }
        } catch (RuntimeException e) {
            return errors.report("cannot replay the expert-parallel run " + data.resolve(ExpertParallelRunCheck.RUN), e);
        }
        if (constantsFile != null) {
            try {
                Files.createDirectories(constantsFile.getParent());
                Files.writeString(constantsFile, v.all().constants().toYaml(LatencyValidation.CONSTANTS_HEADER));
                staged.commit();
            } catch (Exception e) {
                return errors.report("cannot write " + constantsOut, e);
            }
            stderr.println("servesim validate-latency: constants in " + constantsOut);
        }
        if (study.experiments().isPresent()) {
            Path dir = data.resolve(STUDY_DIR);
            try {
                stdout.print("\n" + Sim2RealTable.render(Sim2RealStudy.run(dir, study.experiments().get())));
                if (study.experiments().get().isEmpty()) {
                    stdout.print("\n" + ingressLine(IngressFit.fit(dir)));
                }
            } catch (RuntimeException e) {
                return errors.report("cannot simulate the sim-to-real study of " + dir, e);
            }
        }
        return 0;
    }

    /** The front end's ingress fitted on the study, beside the shipped default. */
    static String ingressLine(IngressFit fit) {
        return String.format(Locale.ROOT, "front end ingress (frontend.tokenize_us_per_token), least squares of the relative"
                        + " TTFT-mean error over these %d experiments: %.2f us per prompt token (leaving one out: %.2f-%.2f,"
                        + " held-out median |error| %.1f%%); the shipped default: %.2f%n", fit.experiments().size(),
                fit.usPerToken(), fit.leaveOneOutMin(), fit.leaveOneOutMax(), 100 * fit.heldOutMedianError(),
                FrontEndSettings.FITTED_TOKENIZE_US_PER_TOKEN);
    }
}
