package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GPU the bundled table lacks, added by its datasheet row ({@code sweeps/hardware/h100-pcie.yaml}), end to
 * end: {@code run --gpus} prices it with the roofline and says in the summary that its latency is
 * uncalibrated; a sweep with {@code deployment.gpus} takes it as an axis value beside a bundled GPU and
 * {@code cells/} (read back with DuckDB) marks the one without measurements.
 */
class UserGpuTest {
    private static final Path GPUS = Path.of("..", "sweeps", "hardware", "h100-pcie.yaml").toAbsolutePath().normalize();
    private static final Path CONFIG = Path.of("..", "sweeps", "configs", "llama8b-h100.yaml").toAbsolutePath().normalize();

    private record Result(int code, JsonNode summary, String err) {
    }

    private static Result run(String... args) throws Exception {
        CliRun.Result r = CliRun.exec(args);
        return new Result(r.code(), r.code() == 0 ? r.json() : null, r.err());
    }

    @Test
    void runOnAUserGpuIsPricedByTheRooflineAndMarkedUncalibrated() throws Exception {
        Result pcie = run("run", "--config", CONFIG.toString(), "--gpus", GPUS.toString(), "--hardware", "NVIDIA H100 PCIe",
                "--latency-model", "roofline", "--num-requests", "200");
        assertEquals(0, pcie.code(), pcie.err());
        assertEquals("uncalibrated", pcie.summary().get("latency_calibration").asText());
        String note = pcie.summary().get("latency_calibration_note").asText();
        assertTrue(note.contains("no GEMM or engine-step measurements of H100-PCIE were used in fitting") && note.contains("H100, RTXPRO6000, A100-80GB"),
                note);
        assertTrue(pcie.summary().get("latency_description").asText().contains("H100-PCIE x TP1: per-operator GEMMs over 114 SMs"));

        Result sxm = run("run", "--config", CONFIG.toString(), "--gpus", GPUS.toString(), "--hardware", "H100",
                "--latency-model", "roofline", "--num-requests", "200");
        assertEquals(0, sxm.code(), sxm.err());
        assertEquals("calibrated", sxm.summary().get("latency_calibration").asText());
        assertEquals("", sxm.summary().get("latency_calibration_note").asText(), "empty when calibrated");
        // the PCIe card's 2.0 TB/s against the SXM's 3.35: decode-bound TPOT is slower on it
        assertTrue(pcie.summary().at("/tpot_ms/mean").asDouble() > 1.3 * sxm.summary().at("/tpot_ms/mean").asDouble(),
                pcie.summary().at("/tpot_ms/mean") + " vs " + sxm.summary().at("/tpot_ms/mean"));
    }

    @Test
    void aSweepTakesTheUserGpuAsAnAxisValueAndCellsMarkIt(@TempDir Path tmp) throws Exception {
        Files.copy(GPUS, tmp.resolve("gpus.yaml"));
        Path sweep = tmp.resolve("gpus-sweep.yaml");
        Files.writeString(sweep, """
                name: gpus
                base:
                  deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, latency_model: roofline, gpus: gpus.yaml}
                  workload:
                    aggregate_rate: 10
                    num_requests: 100
                    input_distribution: {type: constant, params: {value: 256}}
                    output_distribution: {type: constant, params: {value: 32}}
                axes: [{name: gpu, path: deployment.hardware, values: [H100, H100-PCIE, L40S]}]
                seeds: [1]
                outputs: {requests: false, sessions: false}
                """);
        Path out = tmp.resolve("out");
        assertEquals(0, Main.execute("sweep", sweep.toString(), "--output", out.toString()));
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT gpu, latency_calibration FROM read_parquet('" + out.resolve("cells")
                     + "/*.parquet') ORDER BY gpu")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + "=" + rs.getString(2));
            }
        }
        // H100 has measurements in the constants' fit; the user's row and the bundled L40S (no data) do not
        assertEquals(List.of("H100=calibrated", "H100-PCIE=uncalibrated", "L40S=uncalibrated"), rows);
    }
}
