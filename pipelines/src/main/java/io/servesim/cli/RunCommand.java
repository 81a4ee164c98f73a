package io.servesim.cli;

import io.servesim.config.ConfigException;
import io.servesim.io.RecordFile;
import io.servesim.metrics.RecordSink;
import io.servesim.metrics.SessionSink;
import io.servesim.metrics.RunSummary;
import io.servesim.sim.RunPlan;
import io.servesim.workload.TraceFormatException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code servesim run}: one simulation; the summary as JSON on stdout (stable key order),
 * diagnostics on stderr, per-request records optionally to Parquet or CSV.
 */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Run one simulation and print its summary as JSON.")
public final class RunCommand implements Callable<Integer> {
    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "run config YAML (defaults apply when omitted)")
    Path config;

    @Option(names = "--requests-out", paramLabel = "FILE", description = "write per-request records to FILE.parquet or FILE.csv")
    Path requestsOut;

    @Option(names = "--sessions-out", paramLabel = "FILE",
            description = "write one record per agentic session to FILE.parquet or FILE.csv")
    Path sessionsOut;

    @Mixin
    ConfigOptions options = new ConfigOptions();

    @Override
    public Integer call() {
        return run(config, requestsOut, sessionsOut, options, System.out, System.err);
    }

    static int run(Path config, Path requestsOut, Path sessionsOut, ConfigOptions options, PrintStream out,
                   PrintStream err) {
        RunPlan plan;
        RecordFile.Requests requestFile = null;
        RecordFile.Sessions sessionFile = null;
        try {
            plan = RunPlan.prepare(options.load(config));
            plan.warnings().forEach(w -> err.println("servesim: warning: " + w));
            if (requestsOut != null) {
                requestFile = RecordFile.requests(requestsOut);
            }
            if (sessionsOut != null) {
                sessionFile = RecordFile.sessions(sessionsOut);
            }
        } catch (ConfigException e) {
            closeQuietly(requestFile);
            err.println("servesim: invalid config" + (config == null ? "" : " " + config) + ":");
            e.problems().forEach(p -> err.println("  " + p));
            return Main.CONFIG_ERROR;
        }
        long startNs = System.nanoTime();
        RunSummary summary;
        try (RecordFile.Requests requests = requestFile; RecordFile.Sessions sessions = sessionFile) {
            summary = plan.run(requests == null ? RecordSink.NONE : requests,
                    sessions == null ? SessionSink.NONE : sessions, null);
        } catch (TraceFormatException e) {
            err.println("servesim: bad trace: " + e.getMessage());
            return Main.CONFIG_ERROR;
        } catch (Exception e) {
            err.println("servesim: run failed: " + e);
            return Main.RUNTIME_ERROR;
        }
        double wallS = (System.nanoTime() - startNs) / 1e9;
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("kv_capacity_source", plan.kvCapacitySource());
        json.putAll(summary.toMap());
        out.println(Json.render(json));
        err.printf("servesim: %d requests (%d completed) in %.2f s wall, %d events (%.0f events/s)%s%n",
                summary.injected(), summary.completed(), wallS, summary.eventsProcessed(),
                summary.eventsProcessed() / Math.max(wallS, 1e-9),
                (requestsOut == null ? "" : "; records in " + requestsOut)
                        + (sessionsOut == null ? "" : "; sessions in " + sessionsOut));
        return 0;
    }

    private static void closeQuietly(AutoCloseable file) {
        if (file != null) {
            try {
                file.close();
            } catch (Exception ignored) {
                // the config error is what gets reported
            }
        }
    }
}
