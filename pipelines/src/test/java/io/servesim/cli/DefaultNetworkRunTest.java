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

/** {@code frontend.network_rtt_us} for a client without a network of its own, read back with DuckDB. */
class DefaultNetworkRunTest {
    /**
     * A round trip of 20,000 us splits into a request leg of 10,000 and a response leg of 10,000. Every request
     * reaches the server 10,000 us after its send, and a follow-up turn is sent 1 s (the think time) after the
     * previous response reached the client: previous client completion = send + client_e2e. Before, the follow-up's
     * request leg was lost: its send was set 10,000 us before that moment.
     */
    @Test
    void aFollowUpIsSentAThinkTimeAfterTheResponseReachedTheClientAndArrivesALegLater(@TempDir Path tmp)
            throws Exception {
        Path cfg = Files.writeString(tmp.resolve("cfg.yaml"), """
                seed: 1
                deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1, latency_model: roofline}
                frontend: {network_rtt_us: 20000}
                workload:
                  aggregate_rate: 2
                  num_requests: 60
                  clients:
                    - id: chat
                      rate_fraction: 1
                      input_distribution: {type: constant, params: {value: 200}}
                      output_distribution: {type: constant, params: {value: 20}}
                      conversation: {probability: 1, turns: {type: constant, params: {value: 3}},
                                     think_time_us: {type: constant, params: {value: 1000000}}}
                """);
        Path requests = tmp.resolve("r.parquet");
        CliRun.Result r = CliRun.exec("run", "--config", cfg.toString(), "--requests-out", requests.toString());
        assertEquals(0, r.code(), r.err());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FILTER (WHERE n.arrival_us - n.send_us <> 10000),"
                    + " count(*) FILTER (WHERE n.turn_index > 0),"
                    + " count(*) FILTER (WHERE n.turn_index > 0 AND n.send_us <> p.send_us + p.client_e2e_us + 1000000)"
                    + " FROM '" + requests + "' n LEFT JOIN '" + requests + "' p"
                    + " ON p.session_id = n.session_id AND p.turn_index = n.turn_index - 1 WHERE n.status = 'completed'");
            rs.next();
            assertEquals(0, rs.getLong(1), "every request's leg is half the round trip");
            assertTrue(rs.getLong(2) > 20, rs.getLong(2) + " follow-ups");
            assertEquals(0, rs.getLong(3), "each follow-up sent a think time after the client got the previous answer");
        }
    }
}
