package io.servesim.io;

import io.servesim.fidelity.ReplayRow;
import io.servesim.io.Schemas;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;

/**
 * Writes a replay's per-request rows ({@link ReplayRow}) to Parquet with the schema
 * {@code schemas/replay.avsc} (a {@link RowFile}: parquet-avro, Snappy, overwrite). NaN latencies (absent
 * on one side) become nulls.
 */
public final class ReplayParquet {
    private ReplayParquet() {
    }

    /** The schema {@code schemas/replay.avsc}. */
    public static Schema schema() {
        return Schemas.load("replay.avsc");
    }

    /** Writes {@code rows} of a replay with {@code latencyModel} to {@code file} (parent directories created). */
    public static void write(Path file, String latencyModel, List<ReplayRow> rows) throws IOException {
        Schema schema = schema();
        try (RowFile writer = RowFiles.open(file, schema, "--out")) {
            GenericData.Record row = new GenericData.Record(schema);
            for (ReplayRow r : rows) {
                row.put("request_index", r.index());
                row.put("request_id", r.requestId());
                row.put("latency_model", latencyModel);
                row.put("input_tokens", r.inputTokens());
                row.put("output_tokens", r.outputTokens());
                row.put("sim_arrival_us", r.arrivalUs());
                row.put("sim_status", r.simStatus());
                row.put("sim_prefix_hit_tokens", r.prefixHitTokens());
                row.put("sim_preemptions", r.preemptions());
                row.put("real_ttft_ms", r.realTtftMs());
                row.put("sim_ttft_ms", orNull(r.simTtftMs()));
                row.put("real_tpot_ms", orNull(r.realTpotMs()));
                row.put("sim_tpot_ms", orNull(r.simTpotMs()));
                row.put("real_e2e_ms", r.realE2eMs());
                row.put("sim_e2e_ms", orNull(r.simE2eMs()));
                row.put("real_queueing_ms", r.realQueueingMs());
                row.put("sim_queueing_ms", orNull(r.simQueueingMs()));
                writer.write(row);
            }
        }
    }

    private static Double orNull(double v) {
        return Double.isNaN(v) ? null : v;
    }
}
