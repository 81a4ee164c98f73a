package io.servesim.cli;

import io.servesim.cli.Main;
import io.servesim.config.ConfigException;
import io.servesim.exit.ErrorReport;
import io.servesim.fidelity.ComparisonReport;
import io.servesim.fidelity.EngineSettings;
import io.servesim.fidelity.RealRun;
import io.servesim.fidelity.Replay;
import io.servesim.fidelity.ReplayOptions;
import io.servesim.fidelity.ReplaySetup;
import io.servesim.io.ReplayParquet;
import io.servesim.io.OutputPath;
import io.servesim.io.RowFiles;
import io.servesim.io.StagedOutputs;
import io.servesim.latency.CalibratedCoefficients;
import io.servesim.latency.GpuCatalog;
import io.servesim.latency.LatencyKind;
import io.servesim.report.ReplayReport;
import io.servesim.report.ReportFile;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code servesim replay-real RUN_DIR}: simulates exactly the requests of a real vLLM run under its
 * engine settings ({@link RealRun}, {@link ReplaySetup}), prints measured against simulated TTFT,
 * TPOT, E2E and queueing statistics ({@link ComparisonReport}) and writes per-request rows to Parquet
 * ({@code schemas/replay.avsc}). The output path is checked before the replay. Exit 0 on success, 2 for a
 * bad or incomplete run directory, option or output path, 1 when the replay or the write fails (one line,
 * {@link ErrorReport}).
 */
@Command(name = "replay-real", mixinStandardHelpOptions = true,
        description = "Replay a real vLLM run (meta.json, requests.jsonl, workload*.jsonl) and compare simulated to measured latencies.")
public final class ReplayRealCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "RUN_DIR", description = "run directory: meta.json, requests.jsonl, workload*.jsonl")
    Path runDir;

    @Option(names = "--latency-model", paramLabel = "KIND", defaultValue = "profiled",
            completionCandidates = LatencyKindCandidates.Concrete.class,
            description = "one of ${COMPLETION-CANDIDATES} (profiled: a measured profile); default ${DEFAULT-VALUE}")
    String latencyModel;

    @Option(names = "--hardware", paramLabel = "GPU", description = "GPU, required when meta.json has no hardware.device_name")
    String hardware;

    @Option(names = "--model", paramLabel = "ID", description = "simulate this model id or config.json instead of meta.json model")
    String model;

    @Option(names = "--coefficients", paramLabel = "FILE", description = "blackbox coefficients YAML (from servesim calibrate)")
    Path coefficients;

    @Option(names = "--gpus", paramLabel = "FILE", description = "GPU rows in gpus.yaml's format (datasheet numbers) that"
            + " meta.json hardware.device_name or --hardware may name")
    Path gpus;

    @Option(names = "--profile", paramLabel = "DIR", description = "LLMServingSim-format profile directory for --latency-model profiled")
    Path profile;

    @Option(names = {"-o", "--out"}, paramLabel = "FILE", description = "per-request rows, .parquet or .csv (default replay-<run folder>-<latency-model>.parquet)")
    Path out;

    @Option(names = "--report", paramLabel = "FILE",
            description = "also write a self-contained HTML page: sim vs real CDFs, per-request scatters, the table")
    Path report;

    @Option(names = "--overwrite", description = "replace --out if it exists (by default an existing file is refused);"
            + " --report replaces a report servesim wrote and never any other file, with or without this flag")
    boolean overwrite;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        return run(runDir, new ReplayOptions(latencyModel, hardware, model, null, profile), coefficients, gpus, out, report,
                overwrite, System.out, System.err, Main.debug(spec));
    }

    /**
     * As {@link #run(Path, ReplayOptions, Path, Path, Path, Path, boolean, PrintStream, PrintStream, boolean)} on the
     * bundled GPUs, without a report.
     */
    public static int run(Path runDir, ReplayOptions options, Path coefficientsFile, Path out, PrintStream stdout,
                          PrintStream stderr, boolean debug) {
        return run(runDir, options, coefficientsFile, null, out, null, false, stdout, stderr, debug);
    }

    /**
     * Replays {@code runDir}; {@code coefficientsFile}, when given, supplies the blackbox coefficients
     * of {@code options}; {@code gpusFile}, when given, adds a user's GPU rows to the bundled ones; {@code report}, when
     * given, is the HTML page to write ({@link ReplayReport}); {@code debug} adds stack traces to error reports.
     */
    public static int run(Path runDir, ReplayOptions options, Path coefficientsFile, Path gpusFile, Path out, Path report,
                          boolean overwrite, PrintStream stdout, PrintStream stderr, boolean debug) {
        try (StagedOutputs staged = StagedOutputs.start("replay-real", stderr)) {
            return run(runDir, options, coefficientsFile, gpusFile, out, report, overwrite, stdout, stderr, debug, staged);
        }
    }

    private static int run(Path runDir, ReplayOptions options, Path coefficientsFile, Path gpusFile, Path out, Path report,
                           boolean overwrite, PrintStream stdout, PrintStream stderr, boolean debug, StagedOutputs staged) {
        ErrorReport errors = new ErrorReport("replay-real", stderr, debug);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Replay replay;
        Path rowsFile;
        try {
            if (out != null) {
                RowFiles.checkName(out, "--out");
                OutputPath.checkFile("--out", out);
            }
            if (report != null) {
                ReportFile.checkChosen("--report", report);
            }
            GpuCatalog gpus = gpusFile == null ? GpuCatalog.builtIn() : GpuCatalog.builtIn().withFile(gpusFile, "--gpus");
            RealRun run = RealRun.read(runDir);
            CalibratedCoefficients calibrated = coefficientsFile == null ? null
                    : CalibratedCoefficients.read(coefficientsFile, "--coefficients");
            ReplayOptions resolved = calibrated == null ? options : new ReplayOptions(options.latencyKind(),
                    options.hardwareOrNull(), options.modelOrNull(), calibrated.coefficients(), options.profileDirOrNull());
            if (coefficientsFile != null && !LatencyKind.BLACKBOX.configName().equalsIgnoreCase(options.latencyKind())) {
                throw new ConfigException("--coefficients", "blackbox coefficients are used only with --latency-model blackbox");
            }
            ReplaySetup setup = ReplaySetup.resolve(run, resolved, gpus);
            String mismatch = calibrated == null ? null : calibrated.mismatch(setup.modelId(), setup.gpu(), gpus, false);
            if (mismatch != null) {
                stderr.println("servesim replay-real: warning: --coefficients: " + mismatch);
            }
            if (calibrated != null && calibrated.totalKvBlocks() > 0
                    && calibrated.totalKvBlocks() != setup.sim().engine().totalKvBlocks()) {
                stderr.println("servesim replay-real: note: --coefficients: the file's total_kv_blocks "
                        + calibrated.totalKvBlocks() + " is not used: a replay's KV capacity is the run's ("
                        + setup.sim().engine().totalKvBlocks() + " blocks, " + setup.kvSource() + ")");
            }
            Path rowsTarget = out != null ? out : defaultOut(runDir, setup);
            if (report != null && report.toAbsolutePath().normalize().equals(rowsTarget.toAbsolutePath().normalize())) {
                throw new io.servesim.exit.UsageException("--report " + report + ": the same file as the per-request rows ("
                        + (out != null ? "--out" : "--out's default") + "); give the report a file of its own");
            }
            rowsFile = staged.stage("--out", rowsTarget, overwrite);
            replay = Replay.run(run, setup);
            header(new PrintStream(printed, true, StandardCharsets.UTF_8), run, replay);
        } catch (RuntimeException e) {
            return errors.report("cannot replay " + runDir, e);
        }
        printed.writeBytes(replay.report().render().getBytes(StandardCharsets.UTF_8));
        stdout.print(printed.toString(StandardCharsets.UTF_8));
        Path file = out != null ? out : defaultOut(runDir, replay.setup());
        try {
            ReplayParquet.write(rowsFile, replay.setup().sim().latency().name(), replay.rows());
            staged.commit();
        } catch (Exception e) {
            return errors.report("cannot write " + file, e);
        }
        stderr.println("servesim replay-real: per-request rows in " + file);
        if (report != null) {
            try {
                ReplayReport.write(report, runDir + " (" + replay.setup().sim().latency().name() + ")",
                        printed.toString(StandardCharsets.UTF_8), replay.rows(), replay.report());
            } catch (Exception e) {
                return errors.report("cannot write " + report, e);
            }
            stderr.println("servesim replay-real: report in " + report);
        }
        return 0;
    }

    /**
     * {@code replay-<run folder>-<latency model>.parquet} in the working directory: replays of two runs, or of one run
     * under two models, do not collide.
     */
    private static Path defaultOut(Path runDir, ReplaySetup setup) {
        Path name = runDir.toAbsolutePath().normalize().getFileName();
        return Path.of("replay-" + (name == null ? "run" : name) + "-" + setup.sim().latency().name() + ".parquet");
    }

    static void header(PrintStream out, RealRun run, Replay replay) {
        ReplaySetup s = replay.setup();
        EngineSettings e = run.settings();
        out.printf("run: %s (vLLM %s, %d requests)%n", run.directory(), e.vllmVersion(), run.measured().size());
        out.printf("model: %s on %s x TP%d%s%n", s.modelId(), s.gpu().name(), e.tensorParallel(), e.dataParallel() == 1 ? ""
                : " x DP" + e.dataParallel() + " behind vLLM's DP load balancer" + (s.sim().expertParallel() != null
                ? ", experts sharded over the ranks, stepping in lockstep" : ""));
        out.printf("engine: max_num_seqs %d, max_num_batched_tokens %d, block %d, prefix caching %s, KV %d blocks (%s)%n",
                e.maxNumSeqs(), e.maxNumBatchedTokens(), e.blockSizeTokens(), e.prefixCaching() ? "on" : "off",
                s.sim().engine().totalKvBlocks(), s.kvSource());
        if (!e.defaultsApplied().isEmpty()) {
            out.println("vLLM defaults assumed: " + String.join(", ", e.defaultsApplied()));
        }
        out.println("latency: " + (s.sim().expertParallel() != null ? s.sim().expertParallel().describe()
                : s.sim().latency().describe()));
        long fromQueued = run.measured().stream().filter(m -> m.fromQueued()).count();
        out.println("latencies from: " + (fromQueued == 0 ? "arrival_time, on both sides"
                : (fromQueued == run.measured().size() ? "" : fromQueued + " requests ") + "queued_ts (arrival_time is on"
                + " another clock), the simulated ones from the simulated enqueue (the engine core taking the request in)"));
        out.printf("compared: %d requests (%d not completed by the simulator); preemptions %d%n%n",
                replay.report().compared(), replay.report().missing(), replay.summary().count("preemptions"));
    }
}
