package io.servesim.plan;

import io.servesim.io.LocalOutputFile;
import io.servesim.io.ParquetWriters;
import io.servesim.io.Schemas;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;

/**
 * The files a plan writes beside its rounds, into its staging folder (committed with the rounds when the plan ends):
 * {@code candidates/} and {@code frontier/} (Parquet, {@code schemas/plan_candidate.avsc} and
 * {@code schemas/plan_frontier.avsc}), {@code recommended.yaml} ({@link RecommendedConfig}), the engine's launch commands
 * ({@code vllm-serve.txt} or {@code sglang-launch.txt}, {@link LaunchCommand}) and {@code summary.txt} (what the command printed). Returns their paths relative to the folder.
 */
final class PlanOutputs {
    static final String CANDIDATES = "candidates";
    static final String FRONTIER = "frontier";
    static final String RECOMMENDED = "recommended.yaml";
    static final String SUMMARY_TEXT = "summary.txt";
    static final String SUMMARY_JSON = "_SUMMARY.json";
    static final String REPORT = "report.html";
    private static final String PART = "part-0.parquet";

    private PlanOutputs() {
    }

    /**
     * Writes the candidates, the frontier and, when there is one, the recommended config and its launch commands into
     * {@code staging}, whose files will be committed to {@code dir}; returns the files written, relative.
     */
    static List<String> write(Path staging, Path dir, PlanSpec plan, PlanResult result, Results results) throws IOException {
        List<String> out = new ArrayList<>();
        out.add(candidates(staging, plan, result, results));
        out.add(frontier(staging, plan, result, results));
        Candidate r = result.recommended();
        if (r != null) {
            List<Integer> budgets = plan.search().budgets();
            int full = budgets.get(budgets.size() - 1);
            Files.writeString(staging.resolve(RECOMMENDED), RecommendedConfig.text(plan, r, plan.targetRps(), full, dir),
                    StandardCharsets.UTF_8);
            LaunchCommand launch = LaunchCommand.of(plan, r);
            Files.writeString(staging.resolve(launch.file()), launch.text(plan, r, plan.targetRps(), full),
                    StandardCharsets.UTF_8);
            out.add(RECOMMENDED);
            out.add(launch.file());
        }
        return out;
    }

    private static String candidates(Path staging, PlanSpec plan, PlanResult result, Results results) throws IOException {
        Schema schema = Schemas.load("plan_candidate.avsc");
        Set<Candidate> frontier = Set.copyOf(result.frontier());
        String rel = CANDIDATES + "/" + PART;
        try (ParquetWriter<GenericRecord> w = open(staging.resolve(rel), schema)) {
            for (PlanResult.Verdict v : result.candidates()) {
                Candidate c = v.candidate();
                GenericData.Record row = new GenericData.Record(schema);
                describe(row, c);
                latency(row, c, results);
                row.put("candidate_index", c.index());
                row.put("prefill_replicas", c.fleet() instanceof Fleet.Disaggregated d ? d.prefill() : null);
                row.put("decode_replicas", c.fleet() instanceof Fleet.Disaggregated d ? d.decode() : null);
                row.put("dp_ranks", c.fleet() instanceof Fleet.DataParallel dp ? dp.ranks() : null);
                row.put("expert_parallel", c.fleet() instanceof Fleet.DataParallel dp ? dp.expertParallel() : null);
                row.put("usd_per_gpu_hour", finite(c.usdPerGpuHour()));
                row.put("price_source", c.priceSource());
                row.put("status", v.status());
                row.put("reason", v.reason());
                row.put("recommended", c.equals(result.recommended()));
                row.put("on_frontier", frontier.contains(c));
                row.put("target_rate_rps", finite(plan.targetRps()));
                Outcome o = v.outcome();
                row.put("trace_requests", o == null ? null : v.requests());
                for (String m : PlanRounds.REPORTED) {
                    row.put(m, o == null ? null : o.value(m));
                }
                row.put("slo_slack", o == null ? null : finite(o.slack(plan.slos())));
                Map<String, Double> sloValues = new LinkedHashMap<>();
                if (o != null) {
                    plan.slos().forEach(s -> sloValues.put(s.metric(), o.value(s.metric())));
                }
                row.put("slo_values", sloValues);
                row.put("slos_missed", o == null ? List.of() : o.missed(plan.slos()));
                boolean searched = !Double.isNaN(v.capacityRps());
                row.put("capacity_rps", searched ? v.capacityRps() : null);
                row.put("capacity_miss_rps", finite(v.missRps()));
                row.put("capacity_capped", searched ? v.capped() : null);
                row.put("capacity_tolerance_rps", searched ? plan.search().toleranceRps() : null);
                w.write(row);
            }
        }
        return rel;
    }

    private static String frontier(Path staging, PlanSpec plan, PlanResult result, Results results) throws IOException {
        Schema schema = Schemas.load("plan_frontier.avsc");
        String rel = FRONTIER + "/" + PART;
        try (ParquetWriter<GenericRecord> w = open(staging.resolve(rel), schema)) {
            int rank = 1;
            for (Candidate c : result.frontier()) {
                PlanResult.Verdict v = result.of(c);
                GenericData.Record row = new GenericData.Record(schema);
                row.put("rank", rank++);
                describe(row, c);
                latency(row, c, results);
                row.put("cost_usd_per_hour", c.costUsdPerHour());
                row.put("capacity_rps", v.capacityRps());
                row.put("capacity_capped", v.capped());
                row.put("capacity_tolerance_rps", plan.search().toleranceRps());
                row.put("usd_per_hour_per_rps", c.costUsdPerHour() / v.capacityRps());
                row.put("meets_target", !plan.capacityOnly() && v.capacityRps() >= plan.targetRps());
                row.put("recommended", c.equals(result.recommended()));
                w.write(row);
            }
        }
        return rel;
    }

    /** The latency model candidate {@code c}'s runs used and whether it is calibrated on its GPU (null: none ran). */
    private static void latency(GenericData.Record row, Candidate c, Results results) {
        String model = results.latencyModel(c.index());
        row.put("latency_model", model);
        row.put("latency_calibration", model == null ? null : results.isUncalibrated(c.index()) ? "uncalibrated" : "calibrated");
    }

    /** The columns both datasets describe a candidate with. */
    private static void describe(GenericData.Record row, Candidate c) {
        row.put("candidate", c.id());
        row.put("gpu", c.gpu());
        row.put("tp", c.tp());
        row.put("architecture", architecture(c.fleet()));
        row.put("instances", c.fleet().instances());
        row.put("engine", c.engine());
        row.put("gpus", c.gpus());
        if (row.getSchema().getField("cost_usd_per_hour").schema().isNullable()) {
            row.put("cost_usd_per_hour", finite(c.costUsdPerHour()));
        }
    }

    /** {@code aggregated}, {@code pd} or {@code dp}: the kind of fleet. */
    private static String architecture(Fleet fleet) {
        if (fleet instanceof Fleet.Disaggregated) {
            return "pd";
        }
        return fleet instanceof Fleet.DataParallel ? "dp" : "aggregated";
    }

    private static ParquetWriter<GenericRecord> open(Path file, Schema schema) throws IOException {
        Files.createDirectories(file.getParent());
        return ParquetWriters.open(new LocalOutputFile(file), schema, ParquetFileWriter.Mode.OVERWRITE);
    }

    private static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }
}
