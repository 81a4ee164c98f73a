package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code servesim run} and {@code sweep} with {@code engine.kind: sglang}, read back with DuckDB; its config errors. */
class SglangCoreRunTest {
    private static final String CONFIG = """
            seed: 3
            deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1, instances: 2}
            engine: {kind: sglang, page_size: 16, schedule_policy: lpm}
            policies: {routing: {name: kv-router}}
            workload:
              aggregate_rate: 20
              num_requests: 300
              input_distribution: {type: gaussian, params: {mean: 700, std_dev: 100, min: 600, max: 1000}}
              output_distribution: {type: gaussian, params: {mean: 64, std_dev: 16, min: 1, max: 256}}
              prefix: {group: system, length: 512}
            """;

    /**
     * Two SGLang instances behind the KV router, every prompt opening with the same 512-token system prompt (32 pages
     * of 16): every request completes, and once an instance has prefilled the system prompt its radix tree holds it,
     * so all but the requests that reach an instance before its first prefill ends hit at least those 512 tokens.
     */
    @Test
    void runsWithTheRadixCacheFeedingTheKvRouter(@TempDir Path tmp) throws Exception {
        Path cfg = Files.writeString(tmp.resolve("cfg.yaml"), CONFIG);
        Path requests = tmp.resolve("r.parquet");
        CliRun.Result r = CliRun.exec("run", "--config", cfg.toString(), "--requests-out", requests.toString());
        assertEquals(0, r.code(), r.err());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FILTER (WHERE status = 'completed'),"
                    + " count(*) FILTER (WHERE prefix_hit_tokens >= 512), count(DISTINCT instance_id) FROM '" + requests + "'");
            rs.next();
            assertEquals(300, rs.getLong(1));
            assertTrue(rs.getLong(2) >= 290, rs.getLong(2) + " requests hit the system prompt");
            assertEquals(2, rs.getLong(3));
        }
    }

    /**
     * The engine kind as a sweep axis, one cell per core on one instance: every request completes, and each prompt
     * (the 512-token system prompt, then 600 to 1,000 tokens of its own) after the first few hits the system prompt,
     * at least 512 / 1,512 = 0.34 of its tokens: the prefix hit rate is above 0.3 with every core.
     */
    @Test
    void aSweepTakesTheEngineKindAsAnAxis(@TempDir Path tmp) throws Exception {
        Files.writeString(tmp.resolve("run.yaml"), CONFIG.replace("engine: {kind: sglang, page_size: 16, schedule_policy: lpm}\n",
                "").replace("instances: 2", "instances: 1").replace("num_requests: 300", "num_requests: 100"));
        Path sweep = Files.writeString(tmp.resolve("cores.yaml"), """
                name: cores
                base: run.yaml
                axes:
                  - name: core
                    values:
                      vllm: {engine.kind: vllm}
                      sglang-lpm: {engine.kind: sglang, engine.schedule_policy: lpm, engine.page_size: 16}
                      sglang-fcfs: {engine.kind: sglang, engine.page_size: 1}
                seeds: [1]
                """);
        Path out = tmp.resolve("out");
        CliRun.Result r = CliRun.exec("sweep", sweep.toString(), "--output", out.toString());
        assertEquals(0, r.code(), r.err());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            ResultSet rs = c.createStatement().executeQuery("SELECT core, completed, prefix_hit_rate > 0.3 FROM '"
                    + out.resolve("cells") + "/*.parquet' ORDER BY core");
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(rs.getString(1) + ":" + rs.getLong(2) + ":" + rs.getBoolean(3));
            }
            assertEquals(List.of("sglang-fcfs:100:true", "sglang-lpm:100:true", "vllm:100:true"), rows);
        }
    }

    @Test
    void eachCoreRefusesTheOthersSettingsByPath(@TempDir Path tmp) throws Exception {
        String base = "deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1}\n";
        String[][] cases = {
                {"engine: {schedule_policy: lpm}", "engine.schedule_policy: is a setting of the sglang engine core; engine.kind is vllm"},
                {"engine: {kind: sglang, block_size: 16}", "engine.block_size: is a setting of the vllm engine core; engine.kind is sglang"},
                {"engine: {kind: sglang, kv_cpu_blocks: 100}", "engine.kv_cpu_blocks: is a setting of the vllm engine core"},
                {"engine: {kind: sglang}\npolicies: {scheduler: sjf}", "policies.scheduler"},
                {"engine: {kind: sgl}", "engine.kind"},
                // a Mooncake trace names 512-token blocks: the core's block size is its page_size, and 48 does not divide 512
                {"engine: {kind: sglang, page_size: 48}\nworkload: {trace: {format: mooncake, path: '" + Path.of("..", "sweeps",
                        "data", "traces", "mooncake_fast25", "conversation_trace.jsonl").toAbsolutePath() + "'}}",
                        "engine.page_size: must divide 512 (the workload's trace block size)"},
        };
        for (String[] c : cases) {
            Path cfg = Files.writeString(tmp.resolve("bad.yaml"), base + c[0] + "\n");
            CliRun.Result r = CliRun.exec("run", "--config", cfg.toString(), "--num-requests", "5");
            assertEquals(2, r.code(), c[0] + ": " + r.err());
            assertTrue(r.err().contains(c[1]), c[0] + ": " + r.err());
        }
    }
}
