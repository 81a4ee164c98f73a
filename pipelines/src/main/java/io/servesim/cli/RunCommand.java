package io.servesim.cli;

import io.servesim.decisions.TraceOptions;
import io.servesim.decisions.TraceSummary;
import io.servesim.exit.ErrorReport;
import io.servesim.exit.ExitCode;
import io.servesim.exit.UsageException;
import io.servesim.io.OutputPath;
import io.servesim.io.DecisionFile;
import io.servesim.io.RecordFile;
import io.servesim.io.RowFiles;
import io.servesim.io.StagedOutputs;
import io.servesim.metrics.RecordSink;
import io.servesim.metrics.ReplicaCounts;
import io.servesim.metrics.RunSummary;
import io.servesim.metrics.SessionSink;
import io.servesim.run.RunPlan;
import io.servesim.run.SimConfigLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code servesim run}: one simulation; the summary as JSON on stdout (stable key order),
 * diagnostics on stderr, per-request and per-session records and the replica timeline optionally to Parquet or CSV. Exit 0 on success, 2 for a
 * bad config, flag, output path or trace line, 1 when the run fails or no request completed because every
 * one was dropped or rejected (the summary and stderr give the reasons).
 */
@Command(name = "run", mixinStandardHelpOptions = true, modelTransformer = CatalogFlags.class, description = {
    "Run one simulation and print its summary as JSON.",
    "Defaults apply to everything the config (or its absence) leaves out; with no workload, the "
            + SimConfigLoader.DEFAULT_WORKLOAD_TEXT + " (--rate and --num-requests set those)."})
public final class RunCommand implements Callable<Integer> {
    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "run config YAML (defaults apply when omitted)")
    Path config;

    @Option(names = "--requests-out", paramLabel = "FILE", description = "write per-request records to FILE.parquet or FILE.csv")
    Path requestsOut;

    @Option(names = "--sessions-out", paramLabel = "FILE",
            description = "write one record per agentic session to FILE.parquet or FILE.csv")
    Path sessionsOut;

    @Option(names = "--scaling-out", paramLabel = "FILE", description = {
        "write the replica timeline (time, replicas per lifecycle state; schemas/scaling.avsc) to FILE.parquet or FILE.csv",
        "a fixed fleet writes its instances ready at time 0 and at the end"})
    Path scalingOut;

    @Option(names = "--overwrite", description = "replace output files that exist (by default an existing file is refused:"
            + " servesim cannot tell a file it wrote from one of yours)")
    boolean overwrite;

    @Mixin
    ConfigOptions options = new ConfigOptions();

    @Mixin
    TraceFlags trace = new TraceFlags();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        return run(config, requestsOut, sessionsOut, scalingOut, overwrite, options, trace, System.out, System.err,
                Main.debug(spec));
    }

    static int run(Path config, Path requestsOut, Path sessionsOut, Path scalingOut, ConfigOptions options, PrintStream out,
                   PrintStream err, boolean debug) {
        return run(config, requestsOut, sessionsOut, scalingOut, false, options, new TraceFlags(), out, err, debug);
    }

    /** The temporary file standing in for the rows file {@code target} (null: none asked for). */
    private static Path stageRows(StagedOutputs staged, String flag, Path target, boolean overwrite) {
        if (target == null) {
            return null;
        }
        RowFiles.checkName(target, flag);
        return staged.stage(flag, target, overwrite);
    }

    static int run(Path config, Path requestsOut, Path sessionsOut, Path scalingOut, boolean overwrite, ConfigOptions options,
                   TraceFlags trace, PrintStream out, PrintStream err, boolean debug) {
        try (StagedOutputs staged = StagedOutputs.start("run", err)) {
            return run(config, requestsOut, sessionsOut, scalingOut, overwrite, options, trace, out, err, debug, staged);
        }
    }

    private static int run(Path config, Path requestsOut, Path sessionsOut, Path scalingOut, boolean overwrite,
                           ConfigOptions options, TraceFlags trace, PrintStream out, PrintStream err, boolean debug,
                           StagedOutputs staged) {
        ErrorReport errors = new ErrorReport("run", err, debug);
        RunPlan plan;
        TraceOptions traceOptions;
        Path requestsFile;
        Path sessionsFile;
        Path scalingFile;
        Path traceFile;
        try {
            traceOptions = trace.options();
            Map<String, Path> outputs = new LinkedHashMap<>();
            outputs.put("--requests-out", requestsOut);
            outputs.put("--sessions-out", sessionsOut);
            outputs.put("--scaling-out", scalingOut);
            outputs.put("--trace-out", trace.out);
            OutputPath.checkDistinct(outputs);
            requestsFile = stageRows(staged, "--requests-out", requestsOut, overwrite);
            sessionsFile = stageRows(staged, "--sessions-out", sessionsOut, overwrite);
            scalingFile = stageRows(staged, "--scaling-out", scalingOut, overwrite);
            if (trace.out != null) {
                DecisionFile.checkName(trace.out, "--trace-out");
            }
            traceFile = trace.out == null ? null : staged.stage("--trace-out", trace.out, overwrite);
        } catch (RuntimeException e) {
            return errors.report(e);
        }
        try {
            plan = RunPlan.prepare(options.load(config, note -> err.println("servesim run: " + note)));
            plan.warnings().forEach(w -> err.println("servesim run: warning: " + w));
        } catch (RuntimeException e) {
            // a config problem, or a policy of the config's that failed as it was set up (its constructor threw)
            return errors.report(ErrorReport.exitCode(e) == ExitCode.CONFIG_ERROR
                    ? "invalid config" + (config == null ? "" : " " + config)
                    : "cannot start the run" + (config == null ? "" : " of " + config), e);
        }
        long startNs = System.nanoTime();
        RunSummary summary;
        DropTally drops;
        TraceSummary traceSummary;
        try (RecordFile.Requests requests = requestsFile == null ? null : RecordFile.requests(requestsFile);
             RecordFile.Sessions sessions = sessionsFile == null ? null : RecordFile.sessions(sessionsFile);
             RecordFile<ReplicaCounts> scaling = scalingFile == null ? null : RecordFile.scaling(scalingFile);
             TraceFlags.Session traced = traceOptions.on() ? trace.open(plan.config().seed(), traceFile) : null) {
            drops = new DropTally(requests == null ? RecordSink.NONE : requests);
            summary = plan.run(drops, sessions == null ? SessionSink.NONE : sessions,
                    traced == null ? null : traced.sink(), traceOptions);
            traceSummary = traced == null ? null : traced.summary(plan);
            String nothingToReplay = traced == null ? null : traced.nothingToReplay(plan);
            if (nothingToReplay != null) {
                err.println("servesim run: note: " + nothingToReplay);
            }
            if (scaling != null) {
                summary.autoscaling().timeline().forEach(scaling::write);
            }
        } catch (Exception e) {
            String writing = staged.unnamedWriteFailure(e);
            return writing == null ? errors.report(e) : errors.report(writing, e);
        }
        try {
            staged.commit();
        } catch (UsageException e) {
            return errors.report(e);
        } catch (IOException e) {
            return errors.report("cannot move the outputs into place", e);
        }
        double wallS = (System.nanoTime() - startNs) / 1e9;
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("kv_capacity_source", plan.kvCapacitySource());
        // what ttft_ms and e2e_ms hold (server side: arrival at the server to the chunk leaving it) beside the client's
        json.put("frontend", plan.frontEndDescription());
        json.putAll(summary.toMap());
        if (drops.refused() > 0) {
            json.put("drop_reasons", drops.byReason());
        }
        if (traceSummary != null) {
            json.put("trace_summary", traceSummary.toMap());
        }
        out.println(Json.render(json));
        err.printf("servesim: %d requests (%d completed) in %.2f s wall, %d events (%.0f events/s)%s%n",
                summary.count("injected"), summary.count("completed"), wallS, summary.count("events_processed"),
                summary.count("events_processed") / Math.max(wallS, 1e-9),
                (requestsOut == null ? "" : "; records in " + requestsOut)
                        + (sessionsOut == null ? "" : "; sessions in " + sessionsOut)
                        + (scalingOut == null ? "" : "; replica timeline in " + scalingOut)
                        + (trace.out == null ? "" : "; decisions in " + trace.out));
        if (summary.count("completed") == 0 && summary.count("injected") > 0 && drops.refused() == summary.count("injected")) {
            err.println("servesim run: every request was dropped or rejected (" + drops.refused() + " of "
                    + summary.count("injected") + "): " + drops.describe());
            return ExitCode.RUNTIME_ERROR;
        }
        return 0;
    }
}
