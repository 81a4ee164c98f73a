package io.servesim.evaluate;

import io.servesim.config.ConfigException;
import io.servesim.metrics.Column;
import io.servesim.metrics.Metric;
import io.servesim.metrics.MetricCatalog;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The JSON shapes {@code servesim evaluate} prints, one per search framework. Each is a map that
 * renders as one JSON object; NaN renders as null.
 * <ul>
 *   <li>{@link #NATIVE}: the {@code EvaluationResult} of BLIS macro plan, G.3 (inference-sim/inference-sim
 *       @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}): fitness, features, and
 *       per run the raw metrics ({@link RawMetrics}) and trace summary;</li>
 *   <li>{@link #OPENEVOLVE}: OpenEvolve's {@code EvaluationResult(metrics, artifacts)} (codelion/openevolve v0.2.25
 *       @ fda1963b, {@code openevolve/evaluation_result.py}): {@code metrics} a flat dict of numbers with
 *       {@code combined_score} the primary one ({@code examples/README.md}), the behaviour descriptors as plain
 *       metrics, so {@code feature_dimensions} can name them, and every numeric column of the metric catalog under its
 *       name, its mean over the runs where it is defined (a column undefined in every run, such as a fixed fleet's
 *       time to ready, is left out: the dict holds numbers only); {@code artifacts} the text side channel OpenEvolve
 *       puts in the next prompt ({@code prompt/sampler.py}, {@code include_artifacts}): {@code decision_trace}, each
 *       run's trace summary under its label;</li>
 *   <li>{@link #GEPA}: the parts of GEPA's {@code EvaluationBatch} (gepa {@code core/adapter.py}),
 *       one element per run: {@code outputs}, {@code scores} and {@code trajectories} (the trace
 *       summaries that {@code make_reflective_dataset} turns into feedback).</li>
 * </ul>
 * An invalid candidate gets {@link #error}, without any fitness, in every format.
 */
public enum EvaluationFormat {
    NATIVE(EvaluationFormat::nativeMap),
    OPENEVOLVE(EvaluationFormat::openEvolveResult),
    GEPA(EvaluationFormat::gepa);

    private final Function<Evaluation, Map<String, Object>> render;

    EvaluationFormat(Function<Evaluation, Map<String, Object>> render) {
        this.render = render;
    }

    /** The format's name as {@code --format} spells it. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    public Map<String, Object> render(Evaluation e) {
        return render.apply(e);
    }

    /** The fitness-free answer for a candidate that does not bind: every problem with its config path. */
    public static Map<String, Object> error(String candidate, ConfigException e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("error", "invalid_candidate");
        m.put("candidate", candidate);
        m.put("problems", e.problems().stream().map(p -> {
            Map<String, Object> pm = new LinkedHashMap<>();
            pm.put("path", p.path());
            pm.put("message", p.message());
            return pm;
        }).toList());
        return m;
    }

    private static Map<String, Object> nativeMap(Evaluation e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("candidate", e.candidate());
        m.put("fitness", e.fitness());
        m.put("features", e.features());
        m.put("runs", e.runs().stream().map(r -> {
            Map<String, Object> rm = new LinkedHashMap<>();
            rm.put("label", r.label());
            rm.put("fitness", r.fitness());
            rm.put("raw_metrics", r.raw().toMap());
            rm.put("features", r.features());
            rm.put("trace_summary", r.trace().toMap());
            return rm;
        }).toList());
        return m;
    }

    private static Map<String, Object> openEvolveResult(Evaluation e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("metrics", openEvolve(e));
        StringBuilder trace = new StringBuilder();
        for (RunEvaluation r : e.runs()) {
            trace.append(trace.length() == 0 ? "" : "\n").append("== ").append(r.label()).append(" ==\n")
                    .append(r.trace().text());
        }
        m.put("artifacts", Map.of("decision_trace", trace.toString()));
        return m;
    }

    private static Map<String, Object> openEvolve(Evaluation e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("combined_score", e.fitness());
        m.put("fitness", e.fitness());
        m.putAll(e.features());
        for (Column c : MetricCatalog.COLUMNS) {
            double mean = c.kind() == Metric.Kind.TEXT ? Double.NaN : e.mean(r -> c.number(r.raw().summary()));
            if (!Double.isNaN(mean)) {
                m.putIfAbsent(c.name(), mean);
            }
        }
        m.put("mean_score_regret", e.mean(r -> r.trace().meanRegret()));
        return m;
    }

    private static Map<String, Object> gepa(Evaluation e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("candidate", e.candidate());
        m.put("scores", e.runs().stream().map(RunEvaluation::fitness).toList());
        m.put("outputs", e.runs().stream().map(r -> {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("label", r.label());
            o.put("fitness", r.fitness());
            o.put("raw_metrics", r.raw().toMap());
            return o;
        }).toList());
        m.put("trajectories", e.runs().stream().map(r -> {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("label", r.label());
            t.put("features", r.features());
            t.put("trace_summary", r.trace().text());
            return t;
        }).toList());
        return m;
    }

    /** Every format's key, for help and errors. */
    public static List<String> keys() {
        return java.util.Arrays.stream(values()).map(EvaluationFormat::key).toList();
    }
}
