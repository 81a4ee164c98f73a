package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deployment.coefficients: FILE} written by {@code calibrate} records the model and GPU of the fitted run
 * ({@code id}, {@code GPU}): used for another GPU or model, the run warns on stderr naming both pairs and the
 * summary says which pair they describe; used for the same pair (a base model and its instruct model share an
 * architecture), it says nothing.
 */
class CalibratedElsewhereTest {
    private static final String FILE = "models:\n  - id: meta-llama/llama-3.1-8b\n    GPU: RTXPRO6000\n    tensor_parallelism: 1\n"
            + "    alpha_coeffs: [0, 0, 0]\n    beta_coeffs: [5000, 0.1, 0.2]\n    total_kv_blocks: 30000\n";

    private record Out(int code, JsonNode json, String err) {
    }

    private static Out run(Path dir, String hardware) throws Exception {
        Files.writeString(dir.resolve("c.yaml"), FILE);
        Path config = dir.resolve("cfg.yaml");
        Files.writeString(config, "seed: 1\ndeployment: {coefficients: c.yaml, model: meta-llama/llama-3.1-8b-instruct, hardware: "
                + hardware + "}\nworkload: {aggregate_rate: 10, num_requests: 20, input_distribution: {type: constant, params:"
                + " {value: 64}}, output_distribution: {type: constant, params: {value: 8}}}\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = RunCommand.run(config, null, null, null, new ConfigOptions(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        return new Out(code, new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8)), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void anotherGpuIsNamedOnStderrAndInTheSummary(@TempDir Path tmp) throws Exception {
        Out o = run(tmp, "H100");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.err().contains("servesim run: warning: deployment.coefficients: the calibrated coefficients of "
                + tmp.resolve("c.yaml") + " were fitted on meta-llama/llama-3.1-8b on RTXPRO6000 and are used here for"
                + " meta-llama/llama-3.1-8b-instruct on H100: its step times and KV capacity (total_kv_blocks 30000)"), o.err());
        assertTrue(o.json().get("latency_description").asText().contains("fitted on meta-llama/llama-3.1-8b on RTXPRO6000"),
                o.json().toString());
        assertTrue(o.json().get("latency_calibration_note").asText().contains("used here for meta-llama/llama-3.1-8b-instruct"
                + " on H100"), o.json().toString());
    }

    @Test
    void theGpuAndModelTheyWereFittedOnSayNothing(@TempDir Path tmp) throws Exception {
        Out o = run(tmp, "RTXPRO6000");
        assertEquals(0, o.code(), o.err());
        assertFalse(o.err().contains("warning"), o.err());
        assertTrue(o.json().get("latency_description").asText().contains("fitted on meta-llama/llama-3.1-8b on RTXPRO6000"));
    }
}
