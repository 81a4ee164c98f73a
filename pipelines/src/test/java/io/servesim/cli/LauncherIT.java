package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end through the real launcher ({@code scripts/servesim}) after {@code package}: the shipped
 * example config runs, prints well-formed JSON with the documented keys, and a bad config exits 2
 * naming the path.
 */
class LauncherIT {
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();

    private static Result launch(String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of(ROOT.resolve("scripts/servesim").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(ROOT.toFile()).start();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    private record Result(int code, String out, String err) {
    }

    @Test
    void runsTheExampleConfig(@TempDir Path tmp) throws Exception {
        Path parquet = tmp.resolve("requests.parquet");
        Result r = launch("run", "--config", "sweeps/configs/llama8b-h100.yaml", "--num-requests", "300",
                "--requests-out", parquet.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertEquals("blackbox", json.get("latency_model").asText());
        assertEquals(300, json.get("injected").asInt());
        assertEquals(300, json.get("completed").asInt() + json.get("dropped").asInt());
        assertTrue(json.get("ttft_ms").get("p99").asDouble() >= json.get("ttft_ms").get("p50").asDouble());
        assertTrue(json.get("prefix_hit_rate").asDouble() > 0, "shared 256-token system prompt must hit the prefix cache");
        assertTrue(Files.size(parquet) > 0);
        List<String> keys = new java.util.ArrayList<>();
        json.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("kv_capacity_source", "frontend", "latency_model", "latency_description", "latency_calibration",
                "latency_calibration_note", "total_kv_blocks", "injected", "completed", "dropped", "rejected"),
                keys.subList(0, 11));
        assertEquals("calibrated", json.get("latency_calibration").asText());
    }

    @Test
    void badConfigExitsTwoNamingThePath() throws Exception {
        Result r = launch("validate", "sweeps/configs/llama8b-h100.yaml", "--set", "engine.block_size=12", "--hardware", "H9000");
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("engine.block_size: must be one of vLLM's block sizes"), r.err());
    }
}
