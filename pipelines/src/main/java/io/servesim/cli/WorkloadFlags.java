package io.servesim.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.exit.UsageException;
import io.servesim.run.SimConfig;
import io.servesim.workload.GeneratorSpec;
import io.servesim.workload.TraceSpec;
import io.servesim.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The workload flags {@code --rate}, {@code --num-requests} and {@code --skip-bad-lines}, applied to whatever
 * form the workload takes, or refused with the reason (never accepted and ignored):
 * <ul>
 *   <li>synthetic clients or a scenario: {@code --rate} is {@code aggregate_rate}, {@code --num-requests} is
 *       {@code num_requests}; {@code --skip-bad-lines} is refused (there are no trace lines);</li>
 *   <li>a trace replay: {@code --num-requests N} replays the trace's first N requests ({@code trace.max_requests});
 *       {@code --skip-bad-lines} is {@code trace.skip_bad_lines}; {@code --rate} is refused (the trace's
 *       timestamps, scaled by {@code trace.arrival_speedup_ratio}, or {@code max_in_flight} in concurrency mode,
 *       set the arrivals);</li>
 *   <li>the path of a workload file: the same per the file's content, applied to the bound workload (the file's
 *       relative paths keep resolving against its own directory).</li>
 * </ul>
 * With no {@code workload} in the config the default workload ({@code SimConfigLoader.DEFAULT_WORKLOAD}) applies.
 */
final class WorkloadFlags {
    private final Double rate;
    private final Long numRequests;
    private final boolean skipBadLines;

    WorkloadFlags(Double rate, Long numRequests, Boolean skipBadLines) {
        if (rate != null && !(rate > 0 && Double.isFinite(rate))) {
            throw new UsageException("--rate must be a number > 0, got " + rate);
        }
        if (numRequests != null && numRequests < 1) {
            throw new UsageException("--num-requests must be >= 1, got " + numRequests);
        }
        this.rate = rate;
        this.numRequests = numRequests;
        this.skipBadLines = Boolean.TRUE.equals(skipBadLines);
    }

    /**
     * The overrides these flags stand for, given {@code finalWorkload}: the {@code workload} node once every
     * override is applied. None for a workload file ({@link #applyToFile} then applies them after binding).
     */
    List<String> overrides(JsonNode finalWorkload) {
        List<String> o = new ArrayList<>();
        if (finalWorkload != null && finalWorkload.isTextual()) {
            return o;
        }
        boolean trace = finalWorkload != null && finalWorkload.has("trace");
        if (trace) {
            refuseRate();
            add(o, "workload.trace.max_requests", numRequests);
            if (skipBadLines) {
                o.add("workload.trace.skip_bad_lines=true");
            }
        } else {
            refuseSkip();
            add(o, "workload.aggregate_rate", rate);
            add(o, "workload.num_requests", numRequests);
        }
        return o;
    }

    /** {@code config} with these flags applied to its workload when the config named a workload file. */
    SimConfig applyToFile(SimConfig config, JsonNode finalWorkload) {
        if (finalWorkload == null || !finalWorkload.isTextual() || config.workload() == null) {
            return config;
        }
        WorkloadSpec w = config.workload();
        WorkloadSpec applied;
        if (w instanceof TraceSpec t) {
            refuseRate();
            applied = new TraceSpec(t.format(), t.path(), t.mode(), t.speedupRatio(), t.maxInFlight(),
                    t.skipBadLines() || skipBadLines, numRequests != null ? numRequests : t.maxRequests());
        } else {
            refuseSkip();
            GeneratorSpec g = (GeneratorSpec) w;
            applied = new GeneratorSpec(g.seed(), rate != null ? rate : g.aggregateRateRps(),
                    numRequests != null ? numRequests : g.numRequests(), g.horizonUs(), g.clients(), g.warnings());
        }
        return new SimConfig(config.seed(), config.horizonUs(), config.latency(), config.engine(), config.cluster(),
                config.policies(), config.slo(), config.fitness(), applied, config.autoscaling(), config.pd(),
                config.decodeRouting(), config.maxEvents(), config.frontEnd());
    }

    private void refuseRate() {
        if (rate != null) {
            throw new UsageException("--rate does not apply to a trace replay (workload.trace): its arrivals follow the"
                    + " trace's timestamps (scale them with trace.arrival_speedup_ratio) or, in concurrency mode,"
                    + " trace.max_in_flight; drop --rate");
        }
    }

    private void refuseSkip() {
        if (skipBadLines) {
            throw new UsageException("--skip-bad-lines applies only to a trace replay (workload.trace); this workload"
                    + " is synthetic and has no trace lines; drop --skip-bad-lines");
        }
    }

    private static void add(List<String> out, String path, Object value) {
        if (value != null) {
            out.add(path + "=" + value);
        }
    }
}
