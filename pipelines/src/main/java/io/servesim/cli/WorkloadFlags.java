package io.servesim.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigNode;
import io.servesim.config.Overrides;
import io.servesim.config.Setting;
import io.servesim.exit.UsageException;
import io.servesim.run.SimConfig;
import io.servesim.workload.GeneratorSpec;
import io.servesim.workload.TraceSettings;
import io.servesim.workload.TraceSpec;
import io.servesim.workload.WorkloadSettings;
import io.servesim.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The catalog's workload flags {@code --rate} ({@link WorkloadSettings#AGGREGATE_RATE}), {@code --num-requests}
 * ({@link WorkloadSettings#NUM_REQUESTS}) and {@code --skip-bad-lines} ({@link TraceSettings#SKIP_BAD_LINES}), applied
 * to whatever form the workload takes, or refused with the reason (never accepted and ignored):
 * <ul>
 *   <li>synthetic clients or a scenario: {@code --rate} is {@code aggregate_rate}, {@code --num-requests} is
 *       {@code num_requests}; {@code --skip-bad-lines} is refused (there are no trace lines);</li>
 *   <li>a trace replay: {@code --num-requests N} replays the trace's first N requests ({@code trace.max_requests});
 *       {@code --skip-bad-lines} is {@code trace.skip_bad_lines}; {@code --rate} is refused (the trace's
 *       timestamps, scaled by {@code trace.arrival_speedup_ratio}, or {@code max_in_flight} in concurrency mode,
 *       set the arrivals);</li>
 *   <li>the path of a workload file: the same per the file's content, applied to the bound workload (the file's
 *       relative paths keep resolving against its own directory), each value parsed and checked by its setting.</li>
 * </ul>
 * With no {@code workload} in the config the default workload ({@code SimConfigLoader.DEFAULT_WORKLOAD}) applies.
 */
final class WorkloadFlags {
    private final String rate;
    private final String numRequests;
    private final String skipBadLines;

    /** The settings whose flags are applied here, per the workload's form, rather than as an override of their path. */
    static final Set<Setting<?>> SETTINGS = Set.of(WorkloadSettings.AGGREGATE_RATE, WorkloadSettings.NUM_REQUESTS,
            TraceSettings.SKIP_BAD_LINES);

    /** The workload flags among the catalog flags given ({@code settings}). */
    WorkloadFlags(Map<Setting<?>, String> settings) {
        this.rate = settings.get(WorkloadSettings.AGGREGATE_RATE);
        this.numRequests = settings.get(WorkloadSettings.NUM_REQUESTS);
        this.skipBadLines = settings.get(TraceSettings.SKIP_BAD_LINES);
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
        if (finalWorkload != null && finalWorkload.has("trace")) {
            refuseRate();
            add(o, "workload.trace.max_requests", numRequests);
            add(o, "workload.trace.skip_bad_lines", skipBadLines);
        } else {
            refuseSkip();
            if (finalWorkload != null && finalWorkload.has("stages")) {
                refuseStagedRate();
            }
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
            Long max = parsed(TraceSettings.MAX_REQUESTS, numRequests);
            Boolean skip = parsed(TraceSettings.SKIP_BAD_LINES, skipBadLines);
            applied = new TraceSpec(t.format(), t.path(), t.mode(), t.speedupRatio(), t.maxInFlight(),
                    skip != null ? skip : t.skipBadLines(), max != null ? max : t.maxRequests(), t.warnings());
        } else {
            refuseSkip();
            GeneratorSpec g = (GeneratorSpec) w;
            Double r = parsed(WorkloadSettings.AGGREGATE_RATE, rate);
            if (!g.stages().isEmpty()) {
                refuseStagedRate();
            }
            if (r != null && !g.hasRate()) {
                throw new UsageException("--rate does not apply to this workload: every client's arrival process is"
                        + " distribution, whose inter_arrival_us sets its rate; drop --rate");
            }
            Long n = parsed(WorkloadSettings.NUM_REQUESTS, numRequests);
            applied = g.with(r != null ? r : g.aggregateRateRps(), n != null ? n : g.numRequests(), g.warnings());
        }
        return new SimConfig(config.seed(), config.horizonUs(), config.latency(), config.engine(), config.cluster(),
                config.policies(), config.slo(), config.fitness(), applied, config.autoscaling(), config.pd(),
                config.decodeRouting(), config.maxEvents(), config.frontEnd(), config.dataParallel(), config.expertParallel());
    }

    /**
     * {@code rows} ({@code servesim config --effective}) with these flags' values, marked as flags, where the config
     * named a workload file: the values {@link #applyToFile} gives the run. Unchanged for an inline workload, whose
     * flags were overrides of the tree and are in the rows already.
     */
    List<ConfigNode.Resolved> applyToFileRows(List<ConfigNode.Resolved> rows, JsonNode finalWorkload) {
        if (finalWorkload == null || !finalWorkload.isTextual()) {
            return rows;
        }
        Map<String, String> flagged = new java.util.HashMap<>();
        if (rows.stream().anyMatch(r -> r.path().startsWith("workload.trace."))) {
            refuseRate();
            render(flagged, TraceSettings.MAX_REQUESTS, numRequests);
            render(flagged, TraceSettings.SKIP_BAD_LINES, skipBadLines);
        } else {
            refuseSkip();
            render(flagged, WorkloadSettings.AGGREGATE_RATE, rate);
            render(flagged, WorkloadSettings.NUM_REQUESTS, numRequests);
        }
        return rows.stream().map(r -> flagged.containsKey(r.path())
                ? new ConfigNode.Resolved(r.path(), r.setting(), flagged.get(r.path()), ConfigNode.Source.FLAG) : r).toList();
    }

    private static <T> void render(Map<String, String> into, Setting<T> setting, String raw) {
        T v = parsed(setting, raw);
        if (v != null) {
            into.put(setting.path(), setting.type().render(v));
        }
    }

    /** A flag's value parsed and range-checked by {@code setting}, as the same value in a config would be; null if not given. */
    private static <T> T parsed(Setting<T> setting, String raw) {
        if (raw == null) {
            return null;
        }
        ObjectNode tree = JsonNodeFactory.instance.objectNode();
        Overrides.apply(tree, setting.path() + "=" + ConfigOptions.flagValue(raw));
        String path = setting.path();
        ConfigNode root = ConfigNode.root(tree);
        ConfigNode parent = root;
        for (String key : path.substring(0, path.lastIndexOf('.')).split("\\.")) {
            parent = parent.child(key);
        }
        T value = parent.get(setting);
        parent.throwIfProblems();
        return value;
    }

    private void refuseStagedRate() {
        if (rate != null) {
            throw new UsageException("--rate does not apply to a staged load (workload.stages): each stage's rate sets"
                    + " the clients' rates; drop --rate");
        }
    }

    private void refuseRate() {
        if (rate != null) {
            throw new UsageException("--rate does not apply to a trace replay (workload.trace): its arrivals follow the"
                    + " trace's timestamps (scale them with trace.arrival_speedup_ratio) or, in concurrency mode,"
                    + " trace.max_in_flight; drop --rate");
        }
    }

    private void refuseSkip() {
        if (skipBadLines != null) {
            throw new UsageException("--skip-bad-lines applies only to a trace replay (workload.trace); this workload"
                    + " is synthetic and has no trace lines; drop --skip-bad-lines");
        }
    }

    private static void add(List<String> out, String path, String raw) {
        if (raw != null) {
            out.add(path + "=" + ConfigOptions.flagValue(raw));
        }
    }
}
