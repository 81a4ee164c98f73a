package io.servesim.evolve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigException;
import io.servesim.decisions.TraceOptions;
import io.servesim.metrics.FitnessWeights;
import io.servesim.run.PolicyKind;
import io.servesim.sweep.Axis;
import io.servesim.sweep.Cell;
import io.servesim.sweep.CellRunner;
import io.servesim.sweep.Dataset;
import io.servesim.sweep.DatasetSchemas;
import io.servesim.sweep.Grid;
import io.servesim.sweep.InvalidCell;
import io.servesim.sweep.SweepOutputs;
import io.servesim.sweep.SweepResults;
import io.servesim.sweep.SweepSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * A round of the search as a sweep, and its rows back as scores. A round crosses two axes, the key columns of its
 * {@code cells/} and {@code errors/} rows: {@code candidate} (a label setting {@code policies.<kind>} of each kind the
 * policy sets: a candidate's filled-in template, a baseline's bundle or the best candidate) and {@code workload}
 * (setting {@code workload}), over the split's seeds. A round writes only {@code cells/} and {@code errors/}.
 */
final class EvolveRounds {
    /** The best candidate's label in the held-out round and in {@code comparison/}. */
    static final String BEST = "best";
    /** How {@link #unrunnable} says an entry's config is an earlier entry's: {@code same as <label>}. */
    static final String SAME_AS = "same as ";
    static final List<String> AXES = List.of("candidate", "workload");
    /** Metrics averaged per candidate besides the fitness keys (shown in generations/ and comparison/). */
    static final List<String> REPORTED = List.of("ttft_p99_ms", "tpot_p90_ms", "e2e_p99_ms", "throughput_rps",
            "slo_attainment", "replica_seconds", "cost_usd");
    private static final SweepOutputs ROWS_ONLY = new SweepOutputs(false, false, TraceOptions.OFF, false);

    private EvolveRounds() {
    }

    /**
     * A policy to run: its label (the {@code candidate} column) and the config paths it sets.
     *
     * @param label       {@code g03-c05}, a baseline's label, or {@link #BEST}
     * @param assignments config path ({@code policies.routing}) -> node
     */
    record Entry(String label, Map<String, JsonNode> assignments) {
    }

    /** The metrics read from every row: {@link #REPORTED}, then any other fitness key weighted. */
    static List<String> metrics(FitnessWeights fitness) {
        Set<String> out = new LinkedHashSet<>(REPORTED);
        out.addAll(fitness.weights().keySet().stream().sorted().toList());
        return List.copyOf(out);
    }

    /** Candidate {@code x} (one value per parameter) as the template filled in, labelled {@code label}. */
    static Entry candidate(EvolveSpec spec, String label, double[] x) {
        return bundle(spec, label, filled(spec, x));
    }

    /** The template filled in with {@code x}: a policy bundle, kind -> {name, params}. */
    static Map<String, JsonNode> filled(EvolveSpec spec, double[] x) {
        Map<String, ObjectNode> filled = new LinkedHashMap<>();
        spec.policies().forEach((kind, node) -> filled.put(kind, (ObjectNode) node.deepCopy()));
        for (int i = 0; i < x.length; i++) {
            Param p = spec.params().get(i);
            ObjectNode node = filled.get(p.kind());
            ObjectNode params = node.has("params") && node.get("params").isObject() ? (ObjectNode) node.get("params")
                    : node.putObject("params");
            params.set(p.key(), p.node(x[i]));
        }
        return new LinkedHashMap<>(filled);
    }

    /** A policy bundle (kind -> node) as an entry: each kind at the path the base config holds it. */
    static Entry bundle(EvolveSpec spec, String label, Map<String, JsonNode> bundle) {
        Map<String, JsonNode> set = new LinkedHashMap<>();
        for (PolicyKind<?> k : PolicyKind.ALL) {
            if (bundle.containsKey(k.name())) {
                set.put(k.configPathIn(spec.base()), bundle.get(k.name()));
            }
        }
        return new Entry(label, set);
    }

    /** The sweep of {@code entries} x {@code split}'s workloads over its seeds, named {@code name}. */
    static SweepSpec spec(EvolveSpec spec, String name, List<Entry> entries, EvolveSpec.Split split) {
        List<Axis.Value> candidates = entries.stream().map(e -> new Axis.Value(e.label(), e.assignments())).toList();
        List<Axis.Value> workloads = new ArrayList<>();
        split.workloads().forEach((label, w) -> workloads.add(new Axis.Value(label, Map.of("workload", w))));
        return new SweepSpec(name, spec.base(), spec.baseDir(), List.of(new Axis(AXES.get(0), candidates),
                new Axis(AXES.get(1), workloads)), List.of(), split.seeds(), ROWS_ONLY);
    }

    /**
     * The entries that cannot run (a candidate's parameters that the policy refuses together, e.g. an autoscaler's
     * scale_down above its scale_up), by label, with every problem at its config path; and the entries whose configs
     * are another's (two candidates at the same corner of the bounds) as "same as <label>".
     */
    static Map<String, String> unrunnable(EvolveSpec spec, List<Entry> entries, EvolveSpec.Split split) {
        Map<String, String> out = new LinkedHashMap<>();
        scan(spec, entries, split, (label, workload, problems) -> out.putIfAbsent(label, problems(problems)),
                (label, twin) -> out.put(label, SAME_AS + twin));
        return out;
    }

    /** A problem that keeps entry {@code label} from running on workload {@code workload}, at its run-config path. */
    record Refusal(String label, String workload, ConfigException.Problem problem) {
    }

    /**
     * Every problem that keeps an entry from running on {@code split}: each invalid cell's, and each problem the first
     * cell of an entry to fail planning meets, with the workload it was met on.
     */
    static List<Refusal> refusals(EvolveSpec spec, List<Entry> entries, EvolveSpec.Split split) {
        List<Refusal> out = new ArrayList<>();
        scan(spec, entries, split, (label, workload, problems) -> problems.forEach(p -> out.add(new Refusal(label,
                workload, p))), (label, twin) -> { });
        return out;
    }

    /** What {@link #scan} reports of an entry that cannot run on one workload. */
    private interface Failure {
        void of(String label, String workload, List<ConfigException.Problem> problems);
    }

    /**
     * Expands {@code entries} x {@code split} and reports every invalid cell, the first cell of each other entry that
     * fails planning, and each entry whose runs are another's ({@code twin}: that one's label); an entry is not looked at
     * again once it failed or was found a twin.
     */
    private static void scan(EvolveSpec spec, List<Entry> entries, EvolveSpec.Split split, Failure failure,
                             BiConsumer<String, String> twin) {
        if (entries.isEmpty()) {
            return;
        }
        Grid.Expansion grid = Grid.expand(spec(spec, spec.name(), entries, split));
        Set<String> decided = new HashSet<>();
        for (InvalidCell i : grid.invalid()) {
            decided.add(i.axes().get(0).label());
            failure.of(i.axes().get(0).label(), i.axes().get(1).label(), i.problems());
        }
        Map<String, String> seen = new HashMap<>();
        for (Cell cell : grid.cells()) {
            String label = cell.axes().get(0).label();
            if (decided.contains(label)) {
                continue;
            }
            try {
                CellRunner.plan(cell);
            } catch (ConfigException e) {
                decided.add(label);
                failure.of(label, cell.axes().get(1).label(), e.problems());
                continue;
            }
            String first = seen.putIfAbsent(cell.cellId(), label);
            if (first != null && !first.equals(label)) {
                decided.add(label);
                twin.accept(label, first);
            }
        }
    }

    private static String problems(List<ConfigException.Problem> problems) {
        return String.join("; ", problems.stream().map(ConfigException.Problem::toString).toList());
    }

    /**
     * A policy's runs in a round: how many, how many failed, the mean fitness (a failed run scores 0, the least a run
     * can) and each metric's mean over the runs that finished (null when none has it).
     */
    record Score(int runs, int failed, double fitness, Map<String, Double> metrics) {
    }

    /**
     * The scores of the finished round in {@code dir}, by label. Each mean sums its values in ascending order, not file
     * order, so a round resumed after an interruption (its rows in other files) scores to the same bits, and so do two
     * candidates whose runs score alike.
     */
    static Map<String, Score> read(Path dir, List<String> metrics) throws IOException {
        Map<String, Map<String, double[]>> rows = new TreeMap<>(); // label -> cell id -> failed, fitness, metrics
        List<String> columns = new ArrayList<>(metrics);
        columns.add("fitness");
        SweepResults.forEachRow(dir, Dataset.CELLS, AXES, columns, r -> {
            double[] v = new double[2 + metrics.size()];
            Object f = r.get("fitness");
            v[1] = f == null ? 0 : ((Number) f).doubleValue();
            for (int i = 0; i < metrics.size(); i++) {
                Object x = r.get(metrics.get(i));
                v[2 + i] = x == null ? Double.NaN : ((Number) x).doubleValue();
            }
            rows.computeIfAbsent(r.get("candidate").toString(), k -> new TreeMap<>())
                    .put(r.get(DatasetSchemas.CELL_ID).toString(), v);
        });
        SweepResults.forEachRow(dir, Dataset.ERRORS, AXES, List.of(), r -> {
            double[] v = new double[2 + metrics.size()];
            v[0] = 1;
            rows.computeIfAbsent(r.get("candidate").toString(), k -> new TreeMap<>())
                    .put(r.get(DatasetSchemas.CELL_ID).toString(), v);
        });
        Map<String, Score> out = new LinkedHashMap<>();
        rows.forEach((label, byCell) -> {
            int failed = 0;
            double[] fitness = new double[byCell.size()];
            List<double[]> finite = new ArrayList<>();
            for (int i = 0; i < metrics.size(); i++) {
                finite.add(new double[byCell.size()]);
            }
            int[] count = new int[metrics.size()];
            int k = 0;
            for (double[] v : byCell.values()) {
                failed += (int) v[0];
                fitness[k++] = v[1];
                for (int i = 0; i < metrics.size(); i++) {
                    if (v[0] == 0 && Double.isFinite(v[2 + i])) {
                        finite.get(i)[count[i]++] = v[2 + i];
                    }
                }
            }
            Map<String, Double> m = new LinkedHashMap<>();
            for (int i = 0; i < metrics.size(); i++) {
                m.put(metrics.get(i), count[i] == 0 ? null : sortedSum(finite.get(i), count[i]) / count[i]);
            }
            out.put(label, new Score(byCell.size(), failed, sortedSum(fitness, fitness.length) / byCell.size(), m));
        });
        return out;
    }

    /**
     * The sum of the first {@code n} of {@code values} in ascending order: the same bits for the same values whatever
     * order the runs came in (cell ids, which hold the candidate's parameters, order each candidate's runs differently),
     * so candidates whose runs score alike tie exactly and the earlier one stays the best.
     */
    static double sortedSum(double[] values, int n) {
        double[] sorted = java.util.Arrays.copyOf(values, n);
        java.util.Arrays.sort(sorted);
        double sum = 0;
        for (double v : sorted) {
            sum += v;
        }
        return sum;
    }
}
