package io.servesim.compare;

import io.servesim.io.LocalOutputFile;
import io.servesim.io.ParquetWriters;
import io.servesim.io.Schemas;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;

/**
 * Writes one row per metric ({@link MetricComparison}) to Parquet with the schema
 * {@code schemas/compare.avsc} (Snappy, overwrite). Undefined statistics (NaN) become nulls.
 */
final class CompareParquet {
    private CompareParquet() {
    }

    static void write(Path file, List<MetricComparison> rows, List<String> on, Comparison join, Path sim, Path real)
            throws IOException {
        Schema schema = Schemas.load("compare.avsc");
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (ParquetWriter<GenericRecord> writer = ParquetWriters.open(new LocalOutputFile(file), schema, ParquetFileWriter.Mode.OVERWRITE)) {
            for (MetricComparison m : rows) {
                GenericData.Record row = new GenericData.Record(schema);
                row.put("metric", m.metric());
                row.put("on_columns", on);
                row.put("keys", m.keys());
                row.put("sim_rows", m.simRows());
                row.put("real_rows", m.realRows());
                row.put("spearman_rho", orNull(m.spearmanRho()));
                row.put("kendall_tau_b", orNull(m.kendallTauB()));
                row.put("pairwise_accuracy", orNull(m.pairwiseAccuracy()));
                row.put("mape_pct", orNull(m.mapePct()));
                row.put("unmatched_sim_keys", join.simOnly());
                row.put("unmatched_real_keys", join.realOnly());
                row.put("sim_path", sim.toString());
                row.put("real_path", real.toString());
                writer.write(row);
            }
        }
    }

    private static Double orNull(double v) {
        return Double.isNaN(v) ? null : v;
    }
}
