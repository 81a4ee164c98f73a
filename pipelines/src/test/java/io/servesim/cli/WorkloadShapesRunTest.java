package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code servesim run} on the inference-perf example: a prompt pool sent in drained stages, read back with DuckDB. */
class WorkloadShapesRunTest {
    private static final Path EXAMPLE = Path.of("..", "sweeps", "workloads", "inference-perf-shared-prefix.yaml")
            .toAbsolutePath().normalize();

    /**
     * sweeps/workloads/inference-perf/shared-prefix.yml: constant load at 2, 4 and 8 requests/s for 60 s each, so
     * exactly 120, 240 and 480 requests, each stage's last at its end (60 s after it starts); the next stage starts
     * 15 s after the later of the stage's end and its last request's completion. The pool holds 10 x 10 prompts
     * behind 1000-token system prompts: after the first 100 requests every prompt was sent before, so (KV to spare)
     * each hits at least its system prompt's 62 full 16-token blocks (992 tokens).
     */
    @Test
    void stagesDrainAndThePoolHitsThePrefixCache(@TempDir Path tmp) throws Exception {
        Path cfg = tmp.resolve("cfg.yaml");
        Files.writeString(cfg, "seed: 1\ndeployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1}\n"
                + "workload: " + EXAMPLE + "\n");
        Path requests = tmp.resolve("r.parquet");
        CliRun.Result r = CliRun.exec("run", "--config", cfg.toString(), "--requests-out", requests.toString());
        assertEquals(0, r.code(), r.err());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            ResultSet rs = c.createStatement().executeQuery("SELECT count(*), max(arrival_us) FILTER (WHERE request_id < 120),"
                    + " max(completion_us) FILTER (WHERE request_id < 120), min(arrival_us) FILTER (WHERE request_id >= 120),"
                    + " max(arrival_us) FILTER (WHERE request_id < 360), max(completion_us) FILTER (WHERE request_id < 360),"
                    + " max(arrival_us), min(prefix_hit_tokens) FILTER (WHERE request_id >= 100)"
                    + " FROM '" + requests + "'");
            rs.next();
            assertEquals(840, rs.getLong(1));
            assertEquals(60_000_000, rs.getLong(2));
            long stage2 = Math.max(60_000_000, rs.getLong(3)) + 15_000_000;
            assertTrue(rs.getLong(4) > stage2, "stage 2 starts after stage 1 drained and 15 s passed");
            assertEquals(stage2 + 60_000_000, rs.getLong(5));
            assertEquals(Math.max(stage2 + 60_000_000, rs.getLong(6)) + 15_000_000 + 60_000_000, rs.getLong(7));
            assertTrue(rs.getLong(8) >= 992, "min prefix hit after the first round: " + rs.getLong(8));
        }
    }

    /** A staged load's rates are its stages': --rate is refused by name, whether the stages are inline or in a file. */
    @Test
    void rateIsRefusedForAStagedLoadInlineOrInAFile(@TempDir Path tmp) throws Exception {
        String deployment = "deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1}\n";
        Path inline = Files.writeString(tmp.resolve("inline.yaml"), deployment + """
                workload:
                  stages: [{rate: 2, duration_us: 10s}]
                  input_distribution: {type: constant, params: {value: 50}}
                  output_distribution: {type: constant, params: {value: 50}}
                """);
        Path file = Files.writeString(tmp.resolve("file.yaml"), deployment + "workload: " + EXAMPLE + "\n");
        for (Path cfg : new Path[] {inline, file}) {
            CliRun.Result r = CliRun.exec("run", "--config", cfg.toString(), "--rate", "5");
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains("--rate does not apply to a staged load (workload.stages)"), cfg + ": " + r.err());
        }
    }

    @Test
    void theDefaultWorkloadsNoteSaysTheRateAndLengthTheRunUses() {
        CliRun.Result given = CliRun.exec("run", "--model", "meta-llama/llama-3.1-8b-instruct", "--hardware", "H100",
                "--rate", "1", "--num-requests", "10");
        assertEquals(0, given.code(), given.err());
        assertTrue(given.err().contains("no workload in the config: default workload: chat-scenario lengths (Azure LLM"
                + " conversation trace 2023 fit: prompts mean 1155 tokens, outputs mean ~211), Poisson arrivals at 1 req/s,"
                + " 10 requests"), given.err());
        CliRun.Result replaced = CliRun.exec("run", "--model", "meta-llama/llama-3.1-8b-instruct", "--hardware", "H100",
                "--set", "workload=" + EXAMPLE);
        assertEquals(0, replaced.code(), replaced.err());
        assertTrue(!replaced.err().contains("default workload"), "no note for a workload --set replaced: " + replaced.err());
    }
}
