package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.servesim.metrics.Column;
import io.servesim.metrics.Metric;
import io.servesim.metrics.MetricCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One name per quantity, end to end: {@code servesim run} of a config and a one-cell {@code servesim sweep} of the same
 * config and seed, the sweep's {@code cells/} read back with DuckDB. The Parquet columns are the catalog's, in its
 * order, and each holds the number the run summary JSON has under the same name (a distribution's statistic in its
 * object: {@code ttft_p99_ms} is {@code ttft_ms.p99}).
 */
class OneNamePerMetricTest {
    private static final String CONFIG = """
            deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1, instances: 2}
            engine: {max_num_seqs: 64, max_num_batched_tokens: 2048, block_size: 16, total_kv_blocks: 300, max_model_len: 4096,
                     kv_cpu_blocks: 2000, kv_offload_threshold: 0}
            policies: {routing: {name: round-robin}}
            workload:
              aggregate_rate: 200
              num_requests: 120
              input_distribution: {type: gaussian, params: {mean: 256, std_dev: 64, min: 16, max: 1024}}
              output_distribution: {type: gaussian, params: {mean: 64, std_dev: 16, min: 1, max: 256}}
              prefix: {group: system, length: 128}
            """;

    @Test
    void theRunSummaryAndTheCellsRowUseTheSameNamesForTheSameNumbers(@TempDir Path tmp) throws Exception {
        Path config = Files.writeString(tmp.resolve("run.yaml"), CONFIG);
        Path sweep = Files.writeString(tmp.resolve("one.yaml"), """
                name: one
                base: run.yaml
                axes: [{name: routing, path: policies.routing.name, values: [round-robin]}]
                seeds: [42]
                """);
        CliRun.Result run = CliRun.exec("run", "--config", config.toString(), "--seed", "42");
        assertEquals(0, run.code(), run.err());
        JsonNode json = run.json();
        Path out = tmp.resolve("out");
        CliRun.Result swept = CliRun.exec("sweep", sweep.toString(), "--output", out.toString());
        assertEquals(0, swept.code(), swept.err());

        List<String> expected = new ArrayList<>(List.of("cell_id", "routing", "seed", "cell_index"));
        MetricCatalog.COLUMNS.forEach(c -> expected.add(c.name()));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
             ResultSet rs = c.createStatement().executeQuery("SELECT * FROM '" + out.resolve("cells") + "/*.parquet'")) {
            List<String> columns = new ArrayList<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                columns.add(rs.getMetaData().getColumnName(i));
            }
            assertEquals(expected, columns);
            assertTrue(rs.next());
            for (Column col : MetricCatalog.COLUMNS) {
                JsonNode at = col.metric().group() == Metric.Group.RUN ? json : json.get(col.metric().group().key());
                at = at.get(col.metric().name());
                if (col.stat() != null) {
                    at = at.get(col.stat().key());
                }
                Object cell = rs.getObject(col.name());
                if (cell == null) {
                    assertTrue(at.isNull(), col.name() + ": null in cells/, " + at + " in the summary");
                } else if (cell instanceof Number n) {
                    assertEquals(at.asDouble(), n.doubleValue(), 0.0, col.name());
                } else {
                    assertEquals(at.asText(), String.valueOf(cell), col.name());
                }
            }
        }
        // a small GPU cache offloading every eviction: the CPU tier and preemption columns are not zero on both sides
        assertTrue(json.get("kv_tiers").get("kv_offloaded_blocks").asLong() > 0 && json.get("preemptions").asLong() > 0,
                json.toString());
    }
}
