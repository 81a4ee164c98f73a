package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.io.LocalOutputFile;
import io.servesim.io.ParquetWriters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweep's printed result table and row counts, read back from the written cells files: one row
 * per axis combination in the order of its first cell, seeds counted, each metric combined as the
 * catalog says (the mean of the non-null values; '-' when there are none).
 */
class SweepResultsTest {
    @TempDir
    Path out;

    /**
     * Four cells in two files, written out of grid order: rr (cells 3, 2) and kv (cells 0, 1), two
     * seeds each. kv comes first (its first cell is 0). kv: ttft 100 and null -> 100.0; e2e null and
     * null -> '-'; throughput (1 + 2) / 2 = 1.5; tokens (10 + 20) / 2 = 15.0; SLO (0.5 + 1) / 2 =
     * 0.750. rr: ttft (300 + 500) / 2 = 400.0; e2e 1000 and null -> 1000.0; throughput 3.0; tokens
     * 30.0; SLO (0.25 + 0.5) / 2 = 0.375.
     */
    @Test
    void tableCombinesSeedsPerAxisCombinationInGridOrder() throws Exception {
        Schema schema = DatasetSchemas.forAxes(List.of("routing")).get(Dataset.CELLS);
        Path dir = Files.createDirectories(out.resolve(Dataset.CELLS.directory()));
        write(dir.resolve("part-0.parquet"), schema, List.of(
                cell(schema, 3, "rr", 1, 300.0, 1000.0, 3.0, 30.0, 0.25),
                cell(schema, 0, "kv", 1, 100.0, null, 1.0, 10.0, 0.5)));
        write(dir.resolve("part-1.parquet"), schema, List.of(
                cell(schema, 1, "kv", 2, null, null, 2.0, 20.0, 1.0),
                cell(schema, 2, "rr", 2, 500.0, null, 3.0, 30.0, 0.5)));
        Files.writeString(dir.resolve("notes.txt"), "not a dataset file");

        assertEquals("""
                routing  seeds  ttft_p99_ms  e2e_p99_ms  throughput_rps  output_tokens_per_s  slo_attainment
                kv           2        100.0           -             1.5                 15.0           0.750
                rr           2        400.0      1000.0             3.0                 30.0           0.375
                """, SweepResults.table(out, List.of("routing")));
        assertEquals(Map.of(Dataset.CELLS, 4L), SweepResults.rowCounts(out, List.of(Dataset.CELLS)));
    }

    private static void write(Path file, Schema schema, List<GenericRecord> rows) throws Exception {
        try (ParquetWriter<GenericRecord> w = ParquetWriters.open(new LocalOutputFile(file), schema, ParquetFileWriter.Mode.CREATE)) {
            for (GenericRecord r : rows) {
                w.write(r);
            }
        }
    }

    /** A cells row with the table's columns set and every other column at a zero value (null where optional). */
    private static GenericRecord cell(Schema schema, int index, String routing, long seed, Double ttftP99Ms, Double e2eP99Ms,
                                      double throughputRps, double outputTokensPerS, double sloAttainment) {
        GenericRecord r = new GenericData.Record(schema);
        for (Schema.Field f : schema.getFields()) {
            r.put(f.name(), switch (f.schema().getType()) {
                case STRING -> "";
                case INT -> 0;
                case LONG -> 0L;
                case DOUBLE -> 0.0;
                default -> null;
            });
        }
        r.put("cell_index", index);
        r.put("routing", routing);
        r.put("seed", seed);
        r.put("ttft_p99_ms", ttftP99Ms);
        r.put("e2e_p99_ms", e2eP99Ms);
        r.put("throughput_rps", throughputRps);
        r.put("output_tokens_per_s", outputTokensPerS);
        r.put("slo_attainment", sloAttainment);
        return r;
    }
}
