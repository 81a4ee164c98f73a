package io.servesim.sweep;

import io.servesim.io.RequestRows;
import io.servesim.io.SessionRows;
import io.servesim.metrics.Distribution;
import io.servesim.metrics.RequestRecord;
import io.servesim.metrics.RunSummary;
import io.servesim.metrics.SessionRecord;
import io.servesim.trace.DecisionRecord;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Builds the rows of each sweep dataset from kernel results: a fresh record per row (Beam forbids
 * mutating an element after output), key columns first ({@link DatasetSchemas}), then the fields of
 * the dataset's schema, by name. Latency statistics of an empty sample are null, not NaN, so SQL
 * aggregates skip them.
 */
final class SweepRows {
    private SweepRows() {
    }

    static GenericRecord request(Schema schema, Cell cell, RequestRecord r) {
        GenericData.Record row = keyed(schema, cell);
        RequestRows.fill(row, r);
        return row;
    }

    static GenericRecord session(Schema schema, Cell cell, SessionRecord s) {
        GenericData.Record row = keyed(schema, cell);
        SessionRows.fill(row, s);
        return row;
    }

    static GenericRecord cell(Schema schema, Cell cell, RunSummary s) {
        GenericData.Record row = keyed(schema, cell);
        row.put("cell_index", cell.index());
        row.put("latency_model", s.latencyModel());
        row.put("instances", s.cluster().instances());
        row.put("total_kv_blocks", s.totalKvBlocks());
        row.put("injected", s.injected());
        row.put("completed", s.completed());
        row.put("dropped", s.dropped());
        row.put("rejected", s.rejected());
        row.put("unfinished", s.unfinished());
        row.put("preemptions", s.preemptions());
        row.put("kv_allocation_failures", s.kvAllocationFailures());
        stats(row, "ttft", s.ttftMs());
        stats(row, "tpot", s.tpotMs());
        stats(row, "itl", s.tokenItlMs());
        stats(row, "e2e", s.e2eMs());
        row.put("scheduling_delay_mean_ms", orNull(s.schedulingDelayMs().mean()));
        row.put("scheduling_delay_p99_ms", orNull(s.schedulingDelayMs().p99()));
        row.put("queueing_delay_mean_ms", orNull(s.queueingDelayMs().mean()));
        row.put("queueing_delay_p99_ms", orNull(s.queueingDelayMs().p99()));
        row.put("duration_s", s.durationS());
        row.put("throughput_rps", s.requestsPerSec());
        row.put("input_tokens_per_s", s.inputTokensPerSec());
        row.put("output_tokens_per_s", s.outputTokensPerSec());
        row.put("slo_met", s.cluster().sloMet());
        row.put("slo_attainment", s.cluster().sloAttainment());
        row.put("goodput_rps", s.cluster().goodputRps());
        row.put("prefix_hit_rate", s.cacheHitRate());
        row.put("kv_utilization_mean", s.kvUtilizationMean());
        row.put("kv_utilization_peak", s.kvUtilizationPeak());
        row.put("batch_size_mean", s.batchSizeMean());
        row.put("load_imbalance_cv", s.cluster().loadImbalanceCv());
        row.put("jain_fairness", s.cluster().jainFairness());
        row.put("admission_delays", s.cluster().delayed());
        row.put("priority_inversions", s.cluster().priorityInversions());
        row.put("head_of_line_blocks", s.cluster().headOfLineBlocks());
        row.put("fitness", orNull(s.cluster().fitness()));
        row.put("steps", s.steps());
        row.put("events", s.eventsProcessed());
        row.put("skipped_trace_lines", s.skippedTraceLines());
        return row;
    }

    static GenericRecord error(Schema schema, Cell cell, Throwable t) {
        GenericData.Record row = keyed(schema, cell);
        row.put("cell_index", cell.index());
        row.put("exception_class", t.getClass().getName());
        row.put("message", t.getMessage() == null ? "" : t.getMessage());
        StackTraceElement[] st = t.getStackTrace();
        row.put("thrown_at", st.length == 0 ? "" : st[0].toString());
        return row;
    }

    static GenericRecord decision(Schema schema, Cell cell, DecisionRecord d) {
        GenericData.Record row = keyed(schema, cell);
        row.put("request_id", d.requestId());
        row.put("time_us", d.timeUs());
        row.put("policy", d.policy());
        row.put("chosen_instance", d.chosenInstance());
        row.put("loads", doubles(d.loads()));
        row.put("kv_utilizations", doubles(d.kvUtilizations()));
        row.put("prefix_overlap_blocks", Arrays.stream(d.prefixOverlapBlocks()).boxed().toList());
        Map<String, List<Double>> scores = new LinkedHashMap<>();
        d.scores().forEach((k, v) -> scores.put(k, doubles(v)));
        row.put("scores", scores);
        return row;
    }

    private static GenericData.Record keyed(Schema schema, Cell cell) {
        GenericData.Record row = new GenericData.Record(schema);
        row.put(DatasetSchemas.CELL_ID, cell.cellId());
        cell.axes().forEach(a -> row.put(a.axis(), a.label()));
        row.put(DatasetSchemas.SEED, cell.seed());
        return row;
    }

    private static void stats(GenericData.Record row, String metric, Distribution d) {
        row.put(metric + "_mean_ms", orNull(d.mean()));
        row.put(metric + "_p50_ms", orNull(d.p50()));
        row.put(metric + "_p90_ms", orNull(d.p90()));
        row.put(metric + "_p99_ms", orNull(d.p99()));
    }

    private static Double orNull(double x) {
        return Double.isFinite(x) ? x : null;
    }

    private static List<Double> doubles(double[] xs) {
        return Arrays.stream(xs).boxed().toList();
    }
}
