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

/** {@code servesim run} on the reasoning example: reasoning tokens, answer times and history, read back with DuckDB. */
class ReasoningRunTest {
    private static final Path EXAMPLE = Path.of("..", "sweeps", "workloads", "reasoning-chat.yaml").toAbsolutePath()
            .normalize();

    /**
     * sweeps/workloads/reasoning-chat.yaml on one H100: the thinker's requests reason floor(output x p / 100) tokens
     * for p in [60, 90], answer after them, and carry into the next round the previous prompt and answer (not the
     * reasoning), 5 s after the previous round completed; the cache can hold of that history the previous prompt's
     * full 16-token blocks, never the answer. The plain client's first token is its answer.
     */
    @Test
    void reasoningTokensLeadTheOutputAndLeaveTheHistory(@TempDir Path tmp) throws Exception {
        Path cfg = tmp.resolve("cfg.yaml");
        Files.writeString(cfg, "seed: 1\ndeployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1}\n"
                + "workload: " + EXAMPLE + "\n");
        Path requests = tmp.resolve("r.parquet");
        CliRun.Result r = CliRun.exec("run", "--config", cfg.toString(), "--num-requests", "300", "--requests-out",
                requests.toString());
        assertEquals(0, r.code(), r.err());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            ResultSet rs = c.createStatement().executeQuery("SELECT"
                    + " count(*) FILTER (WHERE client_id = 'thinker' AND (reasoning_tokens < output_tokens * 60 // 100"
                    + "   OR reasoning_tokens > output_tokens * 90 // 100)),"
                    + " count(*) FILTER (WHERE client_id = 'thinker' AND reasoning_tokens < output_tokens"
                    + "   AND NOT ttfat_us > ttft_us),"
                    + " count(*) FILTER (WHERE client_id = 'plain' AND (reasoning_tokens <> 0 OR ttfat_us <> ttft_us)),"
                    + " count(*) FILTER (WHERE client_id = 'thinker'), count(*) FILTER (WHERE client_id = 'plain')"
                    + " FROM '" + requests + "' WHERE status = 'completed'");
            rs.next();
            assertEquals(0, rs.getLong(1), "reasoning shares outside [60, 90] percent");
            assertEquals(0, rs.getLong(2), "answers not after the first token");
            assertEquals(0, rs.getLong(3), "plain requests with reasoning");
            assertTrue(rs.getLong(4) > 100 && rs.getLong(5) > 50, rs.getLong(4) + " thinker, " + rs.getLong(5) + " plain");
            rs = c.createStatement().executeQuery("SELECT count(*),"
                    + " count(*) FILTER (WHERE n.input_tokens <= p.input_tokens + p.output_tokens - p.reasoning_tokens),"
                    + " count(*) FILTER (WHERE n.arrival_us <> p.completion_us + 5000000),"
                    + " count(*) FILTER (WHERE n.prefix_hit_tokens > p.input_tokens // 16 * 16),"
                    + " count(*) FILTER (WHERE n.prefix_hit_tokens = p.input_tokens // 16 * 16)"
                    + " FROM '" + requests + "' p JOIN '" + requests + "' n"
                    + " ON n.session_id = p.session_id AND n.turn_index = p.turn_index + 1 WHERE p.client_id = 'thinker'");
            rs.next();
            assertTrue(rs.getLong(1) > 50, rs.getLong(1) + " follow-ups");
            assertEquals(0, rs.getLong(2), "a follow-up's prompt is the previous prompt, its answer and a new message");
            assertEquals(0, rs.getLong(3), "a follow-up is sent the think time after the previous round completed");
            assertEquals(0, rs.getLong(4), "the previous answer, computed after its reasoning, is never a cache hit");
            assertTrue(rs.getLong(5) > rs.getLong(1) / 2, rs.getLong(5) + " of " + rs.getLong(1)
                    + " follow-ups hit the previous prompt's full blocks");
        }
    }

    /**
     * Behind a 20 ms client round trip (10 ms each way), every streamed answer reaches the client 20 ms after its time on
     * the server: the answer token's chunk crosses the same legs as the first token's, so client_ttfat_us - ttfat_us =
     * client_ttft_us - ttft_us = 20,000 us.
     */
    @Test
    void theClientSeesTheAnswerAfterTheNetworkLegs(@TempDir Path tmp) throws Exception {
        Path cfg = tmp.resolve("cfg.yaml");
        Files.writeString(cfg, "seed: 1\ndeployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1}\n"
                + "frontend: {enabled: true, network_rtt_us: 20000}\nworkload: " + EXAMPLE + "\n");
        Path requests = tmp.resolve("r.parquet");
        CliRun.Result r = CliRun.exec("run", "--config", cfg.toString(), "--num-requests", "100", "--requests-out",
                requests.toString());
        assertEquals(0, r.code(), r.err());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FILTER (WHERE reasoning_tokens > 0),"
                    + " count(*) FILTER (WHERE client_ttfat_us - ttfat_us <> 20000 OR client_ttft_us - ttft_us <> 20000)"
                    + " FROM '" + requests + "' WHERE status = 'completed' AND streaming AND ttfat_us >= 0");
            rs.next();
            assertTrue(rs.getLong(1) > 20, rs.getLong(1) + " streamed answers after reasoning");
            assertEquals(0, rs.getLong(2), "answers reaching the client other than 20 ms after the server");
        }
    }
}
