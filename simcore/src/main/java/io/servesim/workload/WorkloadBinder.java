package io.servesim.workload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigException;
import io.servesim.config.ConfigNode;
import io.servesim.config.ReadFailure;
import io.servesim.config.StrictJson;
import io.servesim.slo.SloTargets;
import io.servesim.workload.inferenceperf.InferencePerfConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Binds the {@code workload:} section (workload spec v2). The section is one of:
 * <ul>
 *   <li>a mapping: synthetic clients ({@link GeneratorBinder}) or {@code trace:} replay ({@link TraceBinder});</li>
 *   <li>a string: the path of a standalone workload file holding that mapping, relative to the
 *       config's directory (paths inside it are relative to its own directory);</li>
 *   <li>either of those with {@code scenario: name}: a built-in {@link Scenarios scenario}, the
 *       other keys overriding it;</li>
 *   <li>either of those with {@code inference_perf: file}: an inference-perf config read as the workload
 *       ({@link InferencePerfConfig}).</li>
 * </ul>
 * An optional {@code version} must be 2. Binding is strict (unknown keys are errors) and every
 * problem names its path from the config root ({@code workload.clients[1].arrival.cv: must be > 0});
 * problems inside a standalone file also name the file. Warnings ({@link WorkloadSpec#warnings()})
 * carry the same paths.
 */
public final class WorkloadBinder {
    private WorkloadBinder() {
    }

    /**
     * Binds {@code root}'s {@code workload} key, a mapping or the path of a standalone workload file;
     * null when absent or invalid (problems are recorded on {@code root}). Every client's
     * {@code slo_class} must be a class of {@code slo} (null: not checked, the SLO targets being unknown).
     */
    public static WorkloadSpec bindSection(ConfigNode root, Path baseDir, long horizonUs, SloTargets slo) {
        JsonNode v = root.rawValue("workload");
        String at = root.pathOf("workload");
        if (v == null) {
            return null;
        }
        if (v.isTextual()) {
            return bindFile(baseDir.resolve(v.asText()).normalize(), at, root, horizonUs, slo);
        }
        if (!v.isObject()) {
            root.problem(at, "must be a mapping or the path of a workload file");
            return null;
        }
        return bindTree(v, at, "", root, baseDir, horizonUs, slo);
    }

    /** Loads a standalone workload file (problem paths are relative to the file's root). */
    public static WorkloadSpec load(Path file, long horizonUs) {
        ConfigNode sink = ConfigNode.root(null);
        WorkloadSpec spec = bindFile(file.toAbsolutePath().normalize(), "", sink, horizonUs, null);
        sink.throwIfProblems();
        return spec;
    }

    private static WorkloadSpec bindFile(Path file, String at, ConfigNode sink, long horizonUs, SloTargets slo) {
        String unreadable = ReadFailure.unreadable(file);
        if (unreadable != null) {
            sink.problem(at, "workload file " + file + ": " + unreadable);
            return null;
        }
        ObjectNode tree;
        try {
            tree = StrictJson.readMapping(file);
        } catch (ConfigException e) {
            for (ConfigException.Problem p : e.problems()) {
                // A duplicate key is a problem at its path inside the file; any other names the file itself (and its line).
                boolean atKey = !p.path().startsWith(file.toString());
                sink.problem(!atKey ? at : at.isEmpty() ? p.path() : at + "." + p.path(), atKey ? p.message() : p.toString());
            }
            return null;
        }
        return bindTree(tree, at, " (in " + file + ")", sink, file.getParent(), horizonUs, slo);
    }

    /**
     * Binds a detached tree, reporting its problems on {@code sink} under {@code prefix} and recording its settings there
     * ({@link ConfigNode#adopt}).
     */
    private static WorkloadSpec bindTree(JsonNode tree, String prefix, String note, ConfigNode sink, Path baseDir,
                                         long horizonUs, SloTargets slo) {
        ConfigNode root = sink.detached(tree, prefix);
        root.declare(WorkloadSettings.INFERENCE_PERF.key());
        // over root's tree or the expanded one, sharing root's problems and settings
        ConfigNode w = root.has(WorkloadSettings.INFERENCE_PERF.key()) ? withInferencePerf(root, baseDir) : withScenario(root);
        WorkloadSpec spec = null;
        if (w != null && w.raw().isObject()) {
            String version = w.get(WorkloadSettings.VERSION);
            if (!"2".equals(version)) {
                w.problem(w.pathOf("version"), "unsupported version '" + version + "'; this is workload spec version 2");
            }
            w.declare("trace");
            if (w.has("trace")) {
                notBesideATrace(w);
            }
            spec = w.has("trace") ? TraceBinder.bind(w.child("trace"), baseDir)
                    : GeneratorBinder.bind(w, baseDir, horizonUs);
            w.finish();
            if (spec instanceof GeneratorSpec g && slo != null) {
                checkSloClasses(w, g, slo);
            }
        }
        sink.adopt(root, prefix);
        try {
            root.throwIfProblems();
        } catch (ConfigException e) {
            for (ConfigException.Problem p : e.problems()) {
                String path = p.path().isEmpty() ? prefix : prefix.isEmpty() ? p.path() : prefix + "." + p.path();
                sink.problem(path, p.message() + note);
            }
            return null;
        }
        if (spec instanceof GeneratorSpec g && !g.warnings().isEmpty() && !prefix.isEmpty()) {
            spec = g.with(g.aggregateRateRps(), g.numRequests(), g.warnings().stream().map(m -> prefix + "." + m + note)
                    .toList());
        } else if (spec instanceof TraceSpec t && !t.warnings().isEmpty() && !prefix.isEmpty()) {
            spec = t.withWarnings(t.warnings().stream().map(m -> prefix + "." + m + note).toList());
        }
        return spec;
    }

    /** Reports clients whose SLO class has no targets: their SLO attainment would be 1 whatever their latency. */
    private static void checkSloClasses(ConfigNode w, GeneratorSpec g, SloTargets slo) {
        boolean list = w.raw().has("clients");
        for (int i = 0; i < g.clients().size(); i++) {
            String cls = g.clients().get(i).sloClass();
            if (!slo.classes().containsKey(cls)) {
                w.problem((list ? w.pathOf("clients") + "[" + i + "]." : "") + "slo_class", "no SLO targets for class '" + cls
                        + "'; classes with targets: " + String.join(", ", new TreeSet<>(slo.classes().keySet()))
                        + " (define it under slo:)");
            }
        }
    }

    /**
     * {@code w} over the workload its {@code inference_perf} file describes ({@link InferencePerfConfig}), the keys
     * beside it ({@code version}, {@code seed}, {@code num_requests}, {@code horizon_us}) replacing the file's; null
     * after recording a problem.
     */
    private static ConfigNode withInferencePerf(ConfigNode w, Path baseDir) {
        String file = w.get(WorkloadSettings.INFERENCE_PERF);
        List<String> beside = List.of("inference_perf", "version", "seed", "num_requests", "horizon_us");
        boolean ok = file != null;
        for (var names = w.raw().fieldNames(); names.hasNext(); ) {
            String k = names.next();
            if (!beside.contains(k)) {
                w.problem(w.pathOf(k), "not beside inference_perf, whose file describes the workload; beside it only "
                        + String.join(", ", beside.subList(1, beside.size())));
                ok = false;
            }
        }
        ObjectNode tree = ok ? InferencePerfConfig.read(baseDir.resolve(file).normalize(), w,
                w.pathOf(WorkloadSettings.INFERENCE_PERF.key())) : null;
        if (tree == null) {
            return null;
        }
        for (String k : beside.subList(1, beside.size())) {
            if (w.raw().has(k)) {
                tree.set(k, w.raw().get(k));
            }
        }
        return w.over(tree);
    }

    /** Why each generated workload's key that a trace replay has no use for is refused beside {@code trace}. */
    private static final Map<String, String> NOT_BESIDE_A_TRACE = Map.of(
            "aggregate_rate", "the trace's timestamps are its arrivals (trace.arrival_speedup_ratio scales them)",
            "num_requests", "trace.max_requests caps the requests replayed (--num-requests sets it)",
            "horizon_us", "the run's top-level horizon_us ends the replay",
            "horizon", "the run's top-level horizon_us ends the replay",
            "clients", "the trace's rows are the requests",
            "stages", "the trace's timestamps are its arrivals",
            "stage_interval_us", "the trace's timestamps are its arrivals");

    /** Records a problem for each key beside {@code trace} that only a generated workload reads, saying what stands for it. */
    private static void notBesideATrace(ConfigNode w) {
        for (var names = w.raw().fieldNames(); names.hasNext(); ) {
            String k = names.next();
            String instead = NOT_BESIDE_A_TRACE.get(k);
            if (instead != null) {
                w.problem(w.pathOf(k), "not used beside a trace: " + instead);
                w.declare(k);
            }
        }
    }

    /**
     * {@code w} over its tree with the {@code scenario} it names expanded (the keys beside it replacing the scenario's),
     * or {@code w} itself when it names none; null after recording an unknown scenario.
     */
    private static ConfigNode withScenario(ConfigNode w) {
        String scenario = w.get(WorkloadSettings.SCENARIO);
        if (scenario == null) {
            return w.has(WorkloadSettings.SCENARIO.key()) ? null : w;
        }
        if (w.has("trace")) {
            w.problem(w.pathOf("trace"), "cannot go with scenario " + scenario + ": a trace replays its own requests, the"
                    + " scenario generates them; remove one of the two");
            return null;
        }
        ConfigNode expanded = w.over(Scenarios.withOverrides(scenario, (ObjectNode) w.raw()));
        expanded.declare(WorkloadSettings.SCENARIO.key());
        return expanded;
    }
}
