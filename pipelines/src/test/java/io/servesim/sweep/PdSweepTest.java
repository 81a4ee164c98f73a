package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * P/D end to end: the CLI's flags and a sweep's axes over the pools, their Parquet read back with DuckDB
 * (cells/ columns of both pools and the transfers, request columns of each handoff).
 */
class PdSweepTest {
    private static final Path PD_CONFIG = Path.of("..", "sweeps", "configs", "llama8b-h100-pd.yaml").toAbsolutePath();

    @Test
    void runFlagsMakeAPdRunAndItsRequestRowsNameBothInstancesAndTheTransfer(@TempDir Path tmp) throws Exception {
        Path rows = tmp.resolve("requests.parquet");
        assertEquals(0, TestSweeps.quietly("run", "-c", Path.of("..", "sweeps", "configs", "llama8b-h100.yaml").toString(),
                "--num-requests", "200", "--architecture", "pd", "--prefill-replicas", "1", "--decode-replicas", "2",
                "--pd-decider", "always", "--pd-transfer-latency", "500us", "--pd-transfer-bandwidth", "400Gb/s",
                "--requests-out", rows.toString()));
        String r = "'" + rows + "'";
        assertEquals(200, TestSweeps.scalar("SELECT count(*) FROM " + r + " WHERE status = 'completed'"));
        // one prefill instance (engine 0) feeding two decode instances (engines 1, 2)
        assertEquals(200, TestSweeps.scalar("SELECT count(*) FROM " + r + " WHERE prefill_instance = 0"
                + " AND decode_instance IN (1, 2) AND instance_id = decode_instance"));
        // 400 Gb/s = 50,000 B/us and 131,072 B per token (Llama-3.1-8B, TP 1): a transfer alone takes
        // 500 us + ceil(input x 131,072 / 50,000) us; the rest is time lost to a shared link
        assertEquals(200, TestSweeps.scalar("SELECT count(*) FROM " + r + " WHERE transfer_end_us - transfer_start_us"
                + " = 500 + ceil(input_tokens * 131072 / 50000.0 - 1e-9)::BIGINT + transfer_bandwidth_wait_us"));
        assertEquals(200, TestSweeps.scalar("SELECT count(*) FROM " + r + " WHERE first_token_us <= transfer_start_us + 1000"
                + " AND transfer_end_us <= completion_us AND decode_alloc_wait_us >= 0"));
    }

    @Test
    void sweepAxesOverThePoolsReachEveryCell(@TempDir Path tmp) throws Exception {
        Path base = tmp.resolve("base.yaml");
        java.nio.file.Files.writeString(base, java.nio.file.Files.readString(PD_CONFIG)
                .replace("num_requests: 1500", "num_requests: 200"));
        Path sweep = TestSweeps.write(tmp, "pd", """
                name: pd
                base: %s
                axes:
                  - {name: prefill, path: deployment.pd.prefill.replicas, values: [1, 2]}
                  - {name: decider, path: deployment.pd.decider, values: [always, never]}
                seeds: [1]
                outputs: {requests: true, sessions: false}
                """.formatted(base));
        Path out = tmp.resolve("out");
        assertEquals(0, TestSweeps.quietly("sweep", sweep.toString(), "--output", out.toString()));
        String cells = TestSweeps.glob(out, "cells");
        String requests = TestSweeps.glob(out, "requests");
        assertEquals(4, TestSweeps.scalar("SELECT count(*) FROM " + cells + " WHERE architecture = 'pd'"));
        assertEquals(4, TestSweeps.scalar("SELECT count(*) FROM " + cells + " WHERE prefill_replicas = prefill::INT"
                + " AND decode_replicas = 2 AND gpus = prefill::INT + 2"));
        // always: every request moves once; never: none does, and the prefill pool idles
        assertEquals(2, TestSweeps.scalar("SELECT count(*) FROM " + cells + " WHERE decider = 'always' AND pd_remote = 200"
                + " AND pd_transfers = 200 AND pd_transfer_mean_ms > 0 AND prefill_utilization > 0"));
        assertEquals(2, TestSweeps.scalar("SELECT count(*) FROM " + cells + " WHERE decider = 'never' AND pd_local = 200"
                + " AND pd_transfers = 0 AND prefill_utilization = 0 AND pd_transfer_mean_ms IS NULL"));
        assertEquals(400, TestSweeps.scalar("SELECT count(*) FROM " + requests + " WHERE decider = 'always'"
                + " AND prefill_instance < prefill::INT AND decode_instance >= prefill::INT AND transfer_end_us > transfer_start_us"));
        assertEquals(400, TestSweeps.scalar("SELECT count(*) FROM " + requests + " WHERE decider = 'never'"
                + " AND prefill_instance IS NULL AND transfer_start_us IS NULL AND instance_id >= prefill::INT"));
    }

    @Test
    void theExampleSweepPlansItsEightCells() {
        assertEquals(8, SweepPlan.prepare(SweepFile.load(Path.of("..", "sweeps", "pd-vs-aggregated.yaml"))).cells().size());
    }
}
