package io.servesim.io;

import io.servesim.decisions.Candidate;
import io.servesim.decisions.DecisionKind;
import io.servesim.decisions.DecisionRecord;
import io.servesim.decisions.Snapshot;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Converts a kernel {@link DecisionRecord} into a row of {@code schemas/decision.avsc} (Parquet,
 * the sweep's {@code decisions/}) or into a JSON object with the same keys ({@code --trace-out
 * FILE.jsonl}). The target schema may carry extra leading columns (a sweep's keys); only the decision
 * fields are filled here, by name. The kernel's -1 for an id or count that does not apply to a decision's kind is
 * written as null. Snapshot columns are empty unless the trace is detailed; the JSON
 * object has a scale decision's replica counts and signals, and a routing decision's snapshot arrays.
 */
public final class DecisionRows {
    private DecisionRows() {
    }

    /** Sets every field of {@code schemas/decision.avsc} on {@code row}. */
    public static void fill(GenericRecord row, DecisionRecord d) {
        row.put("time_us", d.timeUs());
        row.put("request_id", absentIfNegative(d.requestId()));
        row.put("kind", kind(d));
        row.put("policy", d.policy());
        row.put("outcome", d.outcome());
        row.put("reason", d.reason());
        row.put("instance", absentIfNegative(d.instance()));
        row.put("value", finite(d.value()));
        row.put("score_regret", finite(d.scoreRegret()));
        Schema candidate = row.getSchema().getField("candidates").schema().getElementType();
        row.put("candidates", d.candidates().stream().map(c -> {
            GenericData.Record r = new GenericData.Record(candidate);
            r.put("instance", c.instance());
            r.put("score", c.score());
            r.put("breakdown", new TreeMap<>(c.breakdown()));
            return r;
        }).toList());
        Snapshot s = d.snapshot();
        row.put("instances", s == null ? List.of() : ints(s.instances()));
        row.put("loads", s == null ? List.of() : doubles(s.loads()));
        row.put("kv_utilizations", s == null ? List.of() : doubles(s.kvUtilizations()));
        row.put("prefix_overlap_blocks", s == null ? List.of() : s.prefixOverlapBlocks() == null ? null
                : ints(s.prefixOverlapBlocks()));
        Map<String, List<Double>> scores = new LinkedHashMap<>();
        if (s != null) {
            s.scores().forEach((k, v) -> scores.put(k, doubles(v)));
        }
        row.put("scores", scores);
        row.put("signals", s == null ? Map.of() : new LinkedHashMap<>(s.signals()));
        row.put("from_replicas", absentIfNegative(d.fromReplicas()));
        row.put("to_replicas", absentIfNegative(d.toReplicas()));
    }

    /** The decision as a JSON object of the schema's fields (NaN values become null when rendered). */
    public static Map<String, Object> toMap(DecisionRecord d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("time_us", d.timeUs());
        m.put("request_id", absentIfNegative(d.requestId()));
        m.put("kind", kind(d));
        m.put("policy", d.policy());
        m.put("outcome", d.outcome());
        m.put("reason", d.reason());
        m.put("instance", absentIfNegative(d.instance()));
        m.put("value", finite(d.value()));
        m.put("score_regret", finite(d.scoreRegret()));
        m.put("candidates", d.candidates().stream().map(DecisionRows::candidate).toList());
        Snapshot s = d.snapshot();
        if (s != null && d.kind() == DecisionKind.SCALE) {
            Map<String, Double> signals = new LinkedHashMap<>();
            s.signals().forEach((k, v) -> signals.put(k, finite(v)));
            m.put("signals", signals);
        } else if (s != null) {
            m.put("instances", s.instances());
            m.put("loads", s.loads());
            m.put("kv_utilizations", s.kvUtilizations());
            m.put("prefix_overlap_blocks", s.prefixOverlapBlocks());
            m.put("scores", s.scores());
        }
        if (d.kind() == DecisionKind.SCALE) {
            m.put("from_replicas", d.fromReplicas());
            m.put("to_replicas", d.toReplicas());
        }
        return m;
    }

    private static Map<String, Object> candidate(Candidate c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("instance", c.instance());
        m.put("score", c.score());
        m.put("breakdown", new TreeMap<>(c.breakdown()));
        return m;
    }

    /** The kernel's -1 for "does not apply" (no request, no instance, no replica count) as a null column. */
    private static Long absentIfNegative(long x) {
        return x < 0 ? null : x;
    }

    private static Integer absentIfNegative(int x) {
        return x < 0 ? null : x;
    }

    private static Double finite(double x) {
        return Double.isFinite(x) ? x : null;
    }

    private static String kind(DecisionRecord d) {
        return d.kind().name().toLowerCase(Locale.ROOT);
    }

    private static List<Integer> ints(int[] xs) {
        return Arrays.stream(xs).boxed().toList();
    }

    private static List<Double> doubles(double[] xs) {
        return Arrays.stream(xs).boxed().toList();
    }
}
