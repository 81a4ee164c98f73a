package io.servesim.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigException;
import io.servesim.config.ConfigNode;
import io.servesim.config.StrictJson;
import io.servesim.latency.GpuCatalog;
import io.servesim.sweep.SweepFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Binds a plan file ({@code sweeps/plan/*.yaml}) into a {@link PlanSpec}, strictly, as a sweep file is bound: unknown
 * keys are errors, every problem names its path in the plan ({@code space.gpus[2]}, {@code slo[0].ttft_p99_ms}) and
 * the valid choices, and all problems are reported at once.
 *
 * <pre>
 * name: llama8b-chat                    # names the output folder out/&lt;name&gt;/
 * base: ../configs/llama8b-h100.yaml    # a run config file (relative to the plan) or an inline one; its workload inline
 * target_rate_rps: 24                   # the traffic to serve: workload.aggregate_rate of every run at the target
 * slo:                                  # every run at the target must meet all of them (and complete every request)
 *   - ttft_p99_ms: 500                  # any cells/ column in ms: at most; slo_attainment: at least
 *   - tpot_p90_ms: 50
 * space:                                # the candidates: GPUs x TP x engine settings x fleets
 *   gpus: [H100, A100-80GB]             # bundled GPUs or rows of the base's deployment.gpus file
 *   tp: [1, 2]                          # default: the base's deployment.tp, else [1]
 *   replicas: {min: 1, max: 8}          # aggregated fleets (or a list); and/or
 *   pd: {prefill: {min: 1, max: 2}, decode: {min: 1, max: 4}}   # P/D fleets: every (prefill, decode) pair
 *   engine: {default: {}, big-batch: {max_num_batched_tokens: 8192}}   # label: engine keys; default one, the base's
 * prices: {L40S: 0.86}                  # USD per GPU-hour, over the GPU table's (required for a GPU it does not price)
 * seed: 1                               # the seed of every run (default 1), or seeds: [1, 2, 3]: every probe runs
 *                                       # once per seed and counts as its worst seed's run (Outcome#worst)
 * search: {screen_requests: 250, confirm_requests: 2000, eta: 3, keep: 4,
 *          capacity: {tolerance_rps: 0.48, max_rps: 384, probes_per_round: 1}}   # defaults: target / 50, target x 16
 * </pre>
 */
public final class PlanFile {
    private PlanFile() {
    }

    /** Reads and binds {@code file}; throws {@link ConfigException} listing every problem. */
    public static PlanSpec load(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        return bind(StrictJson.readMapping(abs), abs.getParent());
    }

    /** Whether {@code tree} is a plan file: it has a space to search or a target rate (a sweep file has neither). */
    public static boolean isPlan(JsonNode tree) {
        return tree != null && (tree.has("space") || tree.has("target_rate_rps"));
    }

    /**
     * The candidates of {@code plan} that cannot run, by id, with why (vLLM would refuse to start them); throws
     * {@link io.servesim.config.ConfigException} when none can ({@link CandidateCheck}).
     */
    public static Map<String, String> invalidCandidates(PlanSpec plan) {
        Map<String, String> out = new LinkedHashMap<>();
        CandidateCheck.invalid(plan).forEach((i, why) -> out.put(plan.candidates().get(i).id(), why));
        return out;
    }

    /** Binds a plan tree whose relative paths resolve against {@code dir}. */
    public static PlanSpec bind(ObjectNode tree, Path dir) {
        ConfigNode root = ConfigNode.root(tree);
        String name = SweepFile.name(root, "the plan's name");
        Base base = base(root, dir);
        JsonNode rate = root.rawValue("target_rate_rps");
        double target = Double.NaN;
        if (!root.has("target_rate_rps")) {
            root.problem("target_rate_rps", "required: the arrival rate to serve, requests per second");
        } else if (rate.isNumber() && !(rate.asDouble() >= 1e-6 && rate.asDouble() <= 1e9)) {
            root.problem("target_rate_rps", "must be in [0.000001, 1000000000] requests per second, got " + rate
                    + " (an arrival rate is above 0 requests per second, and a billion a second is beyond any serving fleet)");
        } else {
            target = root.doubleValue("target_rate_rps", Double.NaN, 1e-6, 1e9);
        }
        List<Slo> slos = slos(root);
        List<Long> seeds = seeds(root);
        SearchSettings search = search(root.child("search"), target);
        List<Candidate> candidates = List.of();
        if (base.tree == null) {
            SpaceBinder.declare(root);
        } else {
            candidates = SpaceBinder.candidates(root, base.tree, base.gpus);
        }
        root.finish();
        root.throwIfProblems();
        return new PlanSpec(name, base.tree, base.dir, target, Double.NaN, slos, candidates, search, seeds);
    }

    /** {@code seed: N} (default 1) or {@code seeds: [N, ...]}, every candidate judged on each. */
    private static List<Long> seeds(ConfigNode root) {
        JsonNode listed = root.rawValue("seeds");
        if (listed == null) {
            return List.of(root.longValue("seed", 1, Long.MIN_VALUE, Long.MAX_VALUE));
        }
        if (root.rawValue("seed") != null) {
            root.problem("seed", "give seed (one) or seeds (a list), not both");
        }
        if (!listed.isArray() || listed.isEmpty()) {
            root.problem("seeds", "must be a non-empty list of integers (a candidate must meet the SLOs on each), got "
                    + listed);
            return List.of(1L);
        }
        List<Long> seeds = SweepFile.listedSeeds(root, listed);
        return seeds.isEmpty() ? List.of(1L) : seeds;
    }

    /** The base config, the folder its paths resolve against and the GPUs it may name. */
    private record Base(ObjectNode tree, Path dir, GpuCatalog gpus) {
    }

    private static Base base(ConfigNode root, Path dir) {
        SweepFile.Base b = SweepFile.base(root, dir, "plan");
        GpuCatalog gpus = GpuCatalog.builtIn();
        if (b.tree() != null) {
            checkBase(root, b.tree());
            JsonNode file = b.tree().path("deployment").path("gpus");
            if (file.isTextual()) {
                try {
                    gpus = gpus.withFile(b.dir().resolve(file.asText()), "base.deployment.gpus");
                } catch (ConfigException e) {
                    e.problems().forEach(p -> root.problem(p.path(), p.message()));
                }
            }
        }
        return new Base(b.tree(), b.dir(), gpus);
    }

    /** What a plan varies must be settable in the base: an inline generated workload, no autoscaling, no pool GPUs. */
    private static void checkBase(ConfigNode root, ObjectNode tree) {
        JsonNode w = tree.get("workload");
        if (w == null || w.isNull()) {
            root.problem("base.workload", "required: the traffic, inline (e.g. {scenario: chat}); the plan sets its"
                    + " aggregate_rate and num_requests");
        } else if (!w.isObject()) {
            root.problem("base.workload", "must be inline (a mapping) in a plan, which sets its aggregate_rate and"
                    + " num_requests; copy the workload file's content here");
        } else if (w.has("trace")) {
            root.problem("base.workload.trace", "a plan needs generated traffic whose rate it sets; a trace's arrivals"
                    + " are its timestamps");
        }
        if (tree.path("autoscaling").path("enabled").asBoolean(false)) {
            root.problem("base.autoscaling.enabled", "a plan sizes fixed fleets; remove autoscaling from the base");
        }
        for (String pool : List.of("prefill", "decode")) {
            for (String key : List.of("hardware", "tp")) {
                if (tree.path("deployment").path("pd").path(pool).has(key)) {
                    root.problem("base.deployment.pd." + pool + "." + key, "a plan sets both pools' GPU and TP from"
                            + " space.gpus and space.tp; remove it");
                }
            }
        }
    }

    private static List<Slo> slos(ConfigNode root) {
        List<Slo> out = new ArrayList<>();
        JsonNode s = root.rawValue("slo");
        if (s == null || !s.isArray() || s.isEmpty()) {
            root.problem("slo", "required: a list of objectives, e.g. [{ttft_p99_ms: 500}, {tpot_p90_ms: 50}]; valid metrics: "
                    + String.join(", ", Slo.metrics()));
            return out;
        }
        for (int i = 0; i < s.size(); i++) {
            String at = "slo[" + i + "]";
            JsonNode e = s.get(i);
            if (!e.isObject() || e.isEmpty()) {
                root.problem(at, "must be a mapping of metric to bound, e.g. {ttft_p99_ms: 500}");
                continue;
            }
            e.fields().forEachRemaining(f -> {
                String path = at + "." + f.getKey();
                if (!f.getValue().isNumber()) {
                    root.problem(path, "must be a number, got " + f.getValue());
                    return;
                }
                try {
                    Slo slo = Slo.of(f.getKey(), f.getValue().asDouble(), path);
                    if (out.stream().anyMatch(o -> o.metric().equals(slo.metric()))) {
                        root.problem(path, "a second bound on " + slo.metric() + "; give each metric once");
                    } else {
                        out.add(slo);
                    }
                } catch (ConfigException ex) {
                    ex.problems().forEach(p -> root.problem(p.path(), p.message()));
                }
            });
        }
        return out;
    }

    private static SearchSettings search(ConfigNode s, double target) {
        int screen = s.intValue("screen_requests", 250, 10, 10_000_000);
        int confirm = s.intValue("confirm_requests", 2000, 10, 10_000_000);
        if (screen > confirm && !s.hasProblemAt(s.pathOf("screen_requests")) && !s.hasProblemAt(s.pathOf("confirm_requests"))) {
            s.problem(s.pathOf("screen_requests"), "must be at most confirm_requests (" + confirm + "): the screening"
                    + " traces are the short ones, cut from the full trace; got " + screen);
        }
        int eta = s.intValue("eta", 3, 2, 100);
        int keep = s.intValue("keep", 4, 1, 100_000);
        ConfigNode c = s.child("capacity");
        double t = Double.isNaN(target) ? 1 : target;
        double tolerance = c.doubleValue("tolerance_rps", t / 50, 1e-6, 1e9);
        double max = c.doubleValue("max_rps", t * 16, 1e-6, 1e12);
        if (max < t) {
            c.problem(c.pathOf("max_rps"), "must be at least target_rate_rps (" + t + "), got " + max);
            max = t;
        }
        int probes = c.intValue("probes_per_round", 1, 1, 64);
        c.finish();
        s.finish();
        return new SearchSettings(screen, confirm, eta, keep, tolerance, max, probes);
    }
}
