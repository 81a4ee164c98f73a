package io.servesim.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import io.servesim.decisions.TraceOptions;
import io.servesim.sweep.Axis;
import io.servesim.sweep.Dataset;
import io.servesim.sweep.DatasetSchemas;
import io.servesim.sweep.SweepOutputs;
import io.servesim.sweep.SweepResults;
import io.servesim.sweep.SweepSpec;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;

/**
 * A round of a plan as a sweep, and its rows back as outcomes. Each probe is one cell of four zipped axes, which are
 * the key columns of the round's {@code cells/} and {@code errors/} rows: {@code candidate} (the candidate's id; a named
 * alternative setting its GPU, TP, fleet and engine paths), {@code stage} (why it ran; sets nothing),
 * {@code rate_rps} ({@code workload.aggregate_rate}) and {@code requests} ({@code workload.num_requests}). A round
 * writes only {@code cells/} and {@code errors/}: a plan reads one row per run.
 */
final class PlanRounds {
    /** The round's axes, zipped: one value each per probe. */
    static final List<String> AXES = List.of("candidate", "stage", "rate_rps", "requests");
    /** Metrics read from every row besides the SLOs' (shown in candidates/ and the summary). */
    static final List<String> REPORTED = List.of("ttft_p99_ms", "tpot_p90_ms", "e2e_p99_ms", "throughput_rps", "slo_attainment");
    private static final SweepOutputs ROWS_ONLY = new SweepOutputs(false, false, TraceOptions.OFF, false);

    private PlanRounds() {
    }

    /** The sweep of {@code probes} (in order) over {@code plan}'s base, named {@code name}. */
    static SweepSpec spec(PlanSpec plan, String name, List<Probe> probes) {
        List<Axis.Value> candidate = new ArrayList<>();
        List<Axis.Value> stage = new ArrayList<>();
        List<Axis.Value> rate = new ArrayList<>();
        List<Axis.Value> requests = new ArrayList<>();
        for (Probe p : probes) {
            Candidate c = plan.candidates().get(p.candidate());
            candidate.add(new Axis.Value(c.id(), c.assignments()));
            stage.add(new Axis.Value(p.stage().label(), Map.of()));
            rate.add(new Axis.Value(rateLabel(p.rateRps()), Map.of("workload.aggregate_rate", DoubleNode.valueOf(p.rateRps()))));
            requests.add(new Axis.Value(String.valueOf(p.requests()), Map.of("workload.num_requests", IntNode.valueOf(p.requests()))));
        }
        List<Axis> axes = List.of(new Axis(AXES.get(0), candidate), new Axis(AXES.get(1), stage), new Axis(AXES.get(2), rate),
                new Axis(AXES.get(3), requests));
        return new SweepSpec(name, plan.base(), plan.baseDir(), axes, List.of(AXES), plan.seeds(), ROWS_ONLY);
    }

    /** A rate as its column shows it: {@code 24}, {@code 25.44}. */
    static String rateLabel(double rateRps) {
        return BigDecimal.valueOf(rateRps).stripTrailingZeros().toPlainString();
    }

    /** The metrics a plan reads from a row: the SLOs' and {@link #REPORTED}, with the request counts. */
    static Set<String> columns(PlanSpec plan) {
        Set<String> out = new LinkedHashSet<>(REPORTED);
        plan.slos().forEach(s -> out.add(s.metric()));
        out.add("injected");
        out.add("completed");
        return out;
    }

    /**
     * Reads the rows of the finished round in {@code roundDir} into {@code results}, a probe's runs over the plan's
     * seeds as their worst ({@link Outcome#worst}); returns the rows read.
     */
    static int read(Path roundDir, PlanSpec plan, Results results) throws IOException {
        Map<String, Integer> byId = new HashMap<>();
        plan.candidates().forEach(c -> byId.put(c.id(), c.index()));
        Set<String> metrics = columns(plan);
        Set<String> cellColumns = new LinkedHashSet<>(metrics);
        cellColumns.add(DatasetSchemas.SEED);
        cellColumns.add("latency_calibration");
        cellColumns.add("latency_model");
        Map<Probe.Key, Map<Long, Outcome>> bySeed = new HashMap<>();
        int[] rows = {0};
        SweepResults.forEachRow(roundDir, Dataset.CELLS, AXES, cellColumns, r -> {
            Map<String, Double> values = new LinkedHashMap<>();
            for (String m : metrics) {
                Object v = r.get(m);
                values.put(m, v == null ? null : ((Number) v).doubleValue());
            }
            Probe.Key key = key(r, byId);
            bySeed.computeIfAbsent(key, k -> new HashMap<>()).put((Long) r.get(DatasetSchemas.SEED), new Outcome(values,
                    ((Number) r.get("injected")).longValue(), ((Number) r.get("completed")).longValue(), null));
            if (r.get("latency_model") != null) {
                results.latencyModel(key.candidate(), String.valueOf(r.get("latency_model")));
            }
            if ("uncalibrated".equals(String.valueOf(r.get("latency_calibration")))) {
                results.uncalibrated(key.candidate());
            }
            rows[0]++;
        });
        SweepResults.forEachRow(roundDir, Dataset.ERRORS, AXES, List.of("exception_class", "message", DatasetSchemas.SEED), r -> {
            bySeed.computeIfAbsent(key(r, byId), k -> new HashMap<>()).put((Long) r.get(DatasetSchemas.SEED),
                    Outcome.failed(r.get("exception_class") + ": " + r.get("message")));
            rows[0]++;
        });
        bySeed.forEach((key, runs) -> {
            List<Outcome> inSeedOrder = new ArrayList<>();
            plan.seeds().stream().filter(runs::containsKey).forEach(s -> inSeedOrder.add(runs.get(s)));
            results.put(key, Outcome.worst(inSeedOrder, plan.slos()));
        });
        return rows[0];
    }

    private static Probe.Key key(GenericRecord r, Map<String, Integer> byId) {
        return new Probe.Key(byId.get(r.get("candidate").toString()), Double.parseDouble(r.get("rate_rps").toString()),
                Integer.parseInt(r.get("requests").toString()));
    }

    /** The assignment a probe's rate makes, for callers that build a config by hand. */
    static Map<String, JsonNode> workload(double rateRps, int requests) {
        Map<String, JsonNode> set = new LinkedHashMap<>();
        set.put("workload.aggregate_rate", DoubleNode.valueOf(rateRps));
        set.put("workload.num_requests", IntNode.valueOf(requests));
        return set;
    }
}
