package io.servesim.metrics;

import static io.servesim.metrics.Metric.Group.CLUSTER;
import static io.servesim.metrics.Metric.Group.PD;
import static io.servesim.metrics.Metric.Group.RUN;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The run summary JSON ({@link RunSummary#toMap()}, what {@code servesim run} prints), generated from the metric
 * catalog: the top-level metrics under their names in catalog order, then one object per section ({@code kv_tiers},
 * {@code cluster}, {@code autoscaling}, {@code pd}) holding its metrics and then its breakdowns, then the top level's
 * breakdowns. A metric's JSON key is its catalog name, the same as its {@code cells/} column; a distribution is an
 * object of statistics ({@code ttft_ms.p99} is the column {@code ttft_p99_ms}). Undefined numbers stay NaN here and
 * render as null.
 */
public final class SummaryJson {
    /**
     * A value of the JSON that is not one number per run: a quantity by SLO class, tenant, instance, pool or client.
     * Its entries use the catalog's names for their slice of a metric ({@code by_slo_class.interactive.slo_attainment}).
     *
     * @param group the object it sits in
     * @param key   its key there
     * @param doc   what it holds
     * @param value its value in a run; null leaves the key out
     */
    public record Breakdown(Metric.Group group, String key, String doc, Function<RunSummary, Object> value) {
    }

    /** Every breakdown, in JSON order within its object. */
    public static final List<Breakdown> BREAKDOWNS = List.of(
            new Breakdown(CLUSTER, "requests_per_instance", "Requests per instance id, each counted once at the instance it"
                    + " was last routed to; under P/D (ids: the prefill pool's, then the decode pool's) a remote request"
                    + " counts once at its prefill and once at its decode instance.",
                    s -> longs(s.cluster().requestsPerInstance())),
            new Breakdown(CLUSTER, "by_slo_class", "Per SLO class: injected, completed, rejected, dropped, slo_met,"
                    + " slo_attainment and the ttft_ms, tpot_ms and e2e_ms distributions of its requests.",
                    s -> groups(s.cluster().bySloClass())),
            new Breakdown(CLUSTER, "by_tenant", "Per tenant: the same keys as by_slo_class.",
                    s -> groups(s.cluster().byTenant())),
            new Breakdown(PD, "prefill", "The prefill pool: gpus; with replicas (P/D) its engine_kind (vllm, sglang),"
                    + " latency_model, latency_description, total_kv_blocks and cpu_kv_blocks per replica,"
                    + " requests_per_instance and load_imbalance_cv; busy_s (engine-busy seconds summed over its replicas) and"
                    + " kv_utilization_mean.", s -> s.pd().prefill().toMap()),
            new Breakdown(PD, "decode", "The decode pool: the same keys as prefill.", s -> s.pd().decode().toMap()),
            new Breakdown(RUN, "sessions", "Agentic sessions per client id: counts by how they ended, their e2e_ms,"
                    + " critical_path_ms and step_latency_sum_ms distributions, and per-session means of steps, LLM and tool"
                    + " calls, tool wait, loop iterations, fan-out and queued share; absent when the workload has none.",
                    SummaryJson::sessions));

    private SummaryJson() {
    }

    /** The breakdown {@code key} (e.g. {@code by_slo_class}). */
    public static Breakdown breakdown(String key) {
        return BREAKDOWNS.stream().filter(b -> b.key().equals(key)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no breakdown " + key));
    }

    /** The summary of {@code s} as an ordered map. */
    static Map<String, Object> of(RunSummary s) {
        Map<String, Object> root = new LinkedHashMap<>();
        metrics(root, Metric.Group.RUN, s);
        for (Metric.Group g : Metric.Group.values()) {
            if (g != Metric.Group.RUN) {
                Map<String, Object> section = new LinkedHashMap<>();
                metrics(section, g, s);
                breakdowns(section, g, s);
                root.put(g.key(), section);
            }
        }
        breakdowns(root, Metric.Group.RUN, s);
        return root;
    }

    private static void metrics(Map<String, Object> into, Metric.Group group, RunSummary s) {
        for (Metric m : MetricCatalog.ALL) {
            if (m.group() == group) {
                into.put(m.name(), m.jsonValue(s));
            }
        }
    }

    private static void breakdowns(Map<String, Object> into, Metric.Group group, RunSummary s) {
        for (Breakdown b : BREAKDOWNS) {
            Object v = b.group() == group ? b.value().apply(s) : null;
            if (v != null) {
                into.put(b.key(), v);
            }
        }
    }

    static List<Long> longs(long[] values) {
        List<Long> out = new ArrayList<>(values.length);
        for (long v : values) {
            out.add(v);
        }
        return out;
    }

    private static Map<String, Object> groups(Map<String, GroupSummary> byName) {
        Map<String, Object> out = new LinkedHashMap<>();
        byName.forEach((k, v) -> out.put(k, v.toMap()));
        return out;
    }

    private static Map<String, Object> sessions(RunSummary s) {
        if (s.sessionsByClient().isEmpty()) {
            return null;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        new TreeMap<>(s.sessionsByClient()).forEach((id, summary) -> out.put(id, summary.toMap()));
        return out;
    }
}
