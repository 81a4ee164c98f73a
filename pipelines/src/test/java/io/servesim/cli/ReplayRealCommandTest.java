package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.exit.ExitCode;
import io.servesim.fidelity.ReplayOptions;
import io.servesim.io.ReplayParquet;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplayRealCommandTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int replay(Path run, ReplayOptions options, Path coefficients, Path parquet) {
        return ReplayRealCommand.run(run, options, coefficients, parquet, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private boolean hasLine(String regex) {
        return stdout().lines().anyMatch(l -> l.matches(regex));
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void replayAndCalibrateTakeAUserGpuRowForTheRunsGpu() throws Exception {
        Path run = RunDirs.tiny(Files.createDirectory(dir.resolve("run")));
        Files.writeString(run.resolve("meta.json"), RunDirs.META.replace("NVIDIA RTX PRO 6000 Blackwell Server Edition",
                "NVIDIA H100 PCIe"));
        Path gpus = Path.of("..", "sweeps", "hardware", "h100-pcie.yaml").toAbsolutePath().normalize();
        String rows = dir.resolve("rows.parquet").toString();
        CliRun.Result unknown = CliRun.exec("replay-real", run.toString(), "--latency-model", "roofline", "--out", rows);
        assertEquals(ExitCode.CONFIG_ERROR, unknown.code());
        assertTrue(unknown.err().contains("hardware.device_name: unknown GPU 'NVIDIA H100 PCIe'")
                && unknown.err().contains("(--gpus FILE)"), unknown.err());
        CliRun.Result replayed = CliRun.exec("replay-real", run.toString(), "--latency-model", "roofline", "--out", rows,
                "--gpus", gpus.toString());
        assertEquals(0, replayed.code(), replayed.err());
        assertTrue(replayed.out().contains("model: meta-llama/Llama-3.1-8B on H100-PCIE x TP1"), replayed.out());
        Path coefficients = dir.resolve("c.yaml");
        CliRun.Result calibrated = CliRun.exec("calibrate", run.toString(), "--out", coefficients.toString(), "--gpus",
                gpus.toString());
        assertEquals(0, calibrated.code(), calibrated.err());
        assertTrue(Files.readString(coefficients).contains("GPU: H100-PCIE"), Files.readString(coefficients));
    }

    @Test
    void printsTheTableAndWritesRowsReadableByDuckDb() throws Exception {
        Path run = RunDirs.tiny(Files.createDirectory(dir.resolve("run")));
        Path coeffs = Files.writeString(dir.resolve("c.yaml"), """
                models:
                  - id: meta-llama/llama-3.1-8b
                    alpha_coeffs: [0, 0, 0]
                    beta_coeffs: [1000, 10, 100]
                """);
        Path parquet = dir.resolve("out/replay.parquet");
        assertEquals(0, replay(run, new ReplayOptions("blackbox", null, null, null, null), coeffs, parquet), stderr());
        // Request 1: prefill 1000 + 32 x 10 = 1320 us, then two decodes of 1100 us: TTFT 1.32, E2E 3.52, TPOT 1.1 ms.
        // Request 2: 16 tokens hit the cache, prefill 1000 + 16 x 10 = 1160 us. TTFT mean (1.32 + 1.16) / 2 = 1.24 ms
        // against (1.5 + 1.2) / 2 = 1.35 ms measured: -8.1%.
        assertTrue(hasLine("TTFT mean\\s+1\\.3\\s+1\\.2\\s+-8\\.1%"), stdout()); // 1.35 is 1.3499.. in binary
        assertTrue(stdout().contains("vLLM defaults assumed: max_model_len (the model's max_position_embeddings), block_size 16"),
                stdout());
        assertTrue(stdout().contains("KV 100 blocks (num_gpu_blocks of the run)"), stdout());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            ResultSet rs = st.executeQuery("SELECT request_id, sim_ttft_ms, real_ttft_ms, sim_tpot_ms, sim_prefix_hit_tokens, "
                    + "latency_model FROM '" + parquet + "' ORDER BY request_index");
            rs.next();
            assertEquals("bench-0", rs.getString(1));
            assertEquals(1.32, rs.getDouble(2), 1e-9);
            assertEquals(1.5, rs.getDouble(3), 1e-6);
            assertEquals(1.1, rs.getDouble(4), 1e-9);
            assertEquals("blackbox", rs.getString(6));
            rs.next();
            rs.getDouble(4);
            assertTrue(rs.wasNull(), "a one-token output has no TPOT");
            assertEquals(16, rs.getInt(5));
        }
        assertTrue(!stderr().contains("total_kv_blocks"), stderr());
        Files.writeString(coeffs, Files.readString(coeffs) + "    total_kv_blocks: 50\n");
        assertEquals(0, replay(run, new ReplayOptions("blackbox", null, null, null, null), coeffs, dir.resolve("again.parquet")),
                stderr());
        assertTrue(stderr().contains("note: --coefficients: the file's total_kv_blocks 50 is not used: a replay's KV capacity"
                + " is the run's (100 blocks, num_gpu_blocks of the run)"), stderr());
    }

    @Test
    void everySchemaFieldIsDocumentedWithItsUnit() {
        for (var f : ReplayParquet.schema().getFields()) {
            assertTrue(f.doc() != null && !f.doc().isBlank(), f.name());
            boolean latency = f.name().startsWith("real_") || f.name().startsWith("sim_");
            assertTrue(!latency || f.name().matches(".*_(ms|us|tokens|status|preemptions)"), f.name() + " needs a unit");
        }
    }

    @Test
    void aMissingFileIsAConfigError() throws Exception {
        Path run = RunDirs.tiny(dir);
        Files.delete(run.resolve("requests.jsonl"));
        assertEquals(ExitCode.CONFIG_ERROR, replay(run, ReplayOptions.profiled(), null, dir.resolve("r.parquet")));
        assertTrue(stderr().contains(run.resolve("requests.jsonl") + ": missing file"), stderr());
    }

    @Test
    void aRunWithoutDeviceNameNeedsHardware() throws Exception {
        Path run = RunDirs.tiny(dir);
        Files.writeString(run.resolve("meta.json"), RunDirs.META.replace(
                "\"hardware\": {\"device_name\": \"NVIDIA RTX PRO 6000 Blackwell Server Edition\"}, ", ""));
        assertEquals(ExitCode.CONFIG_ERROR, replay(run, ReplayOptions.profiled(), null, dir.resolve("r.parquet")));
        assertTrue(stderr().contains("--hardware: required"), stderr());
        assertEquals(0, replay(run, ReplayOptions.profiled().withHardware("RTXPRO6000"), null, dir.resolve("r.parquet")),
                stderr());
    }

    @Test
    void coefficientsNeedTheBlackboxModel() throws Exception {
        Path run = RunDirs.tiny(dir);
        Path coeffs = Files.writeString(dir.resolve("c.yaml"), "models:\n  - {alpha_coeffs: [0, 0, 0], beta_coeffs: [1, 1, 1]}\n");
        assertEquals(ExitCode.CONFIG_ERROR, replay(run, ReplayOptions.profiled(), coeffs, dir.resolve("r.parquet")));
        assertTrue(stderr().contains("--coefficients: blackbox coefficients are used only with --latency-model blackbox"), stderr());
    }

    @Test
    void replaysTheRealRunWithTheProfiledModel() {
        assertEquals(0, replay(RunDirs.REAL, ReplayOptions.profiled().withHardware("RTXPRO6000"), null,
                dir.resolve("real.parquet")), stderr());
        assertTrue(hasLine("TTFT mean\\s+7097\\.2\\s+.*"), stdout());
        assertTrue(stdout().contains("compared: 300 requests (0 not completed by the simulator)"), stdout());
    }

    @Test
    void replaysTheDataParallelExpertParallelRunAsLockstepRanks() throws Exception {
        Path run = io.servesim.testing.RepoFiles.data("validation/vllm_rtxpro6000_qwen3_30b_a3b_dp2_ep");
        Path parquet = dir.resolve("ep.parquet");
        assertEquals(0, replay(run, ReplayOptions.profiled().withHardware("RTXPRO6000"), null, parquet), stderr());
        assertTrue(stdout().contains("on RTXPRO6000 x TP1 x DP2 behind vLLM's DP load balancer, experts sharded over the"
                + " ranks, stepping in lockstep"), stdout());
        assertTrue(stdout().contains("latency: expert parallel over 2 ranks in lockstep"), stdout());
        assertTrue(hasLine("TTFT mean\\s+1086\\.0\\s+.*"), stdout());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            ResultSet rs = st.executeQuery("SELECT count(*), count(sim_e2e_ms), avg(sim_tpot_ms) / avg(real_tpot_ms)"
                    + " FROM '" + parquet + "'");
            rs.next();
            assertEquals(300, rs.getInt(1));
            assertEquals(300, rs.getInt(2), "every request completed on one of the ranks");
            assertTrue(Math.abs(rs.getDouble(3) - 1) < 0.08, "TPOT within 8%: " + rs.getDouble(3));
        }
    }
}
