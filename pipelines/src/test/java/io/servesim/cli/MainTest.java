package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI commands in-process: JSON summary, determinism, error paths and exit codes. */
class MainTest {
    private static final Path EXAMPLE = Path.of("..", "sweeps", "configs", "llama8b-h100.yaml");

    private record Out(int code, String out, String err) {
    }

    private static Out run(Path config, Path requestsOut, ConfigOptions options) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = RunCommand.run(config, requestsOut, options, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Out(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static ConfigOptions opts(String... sets) {
        ConfigOptions o = new ConfigOptions();
        o.sets = new java.util.ArrayList<>(List.of(sets));
        return o;
    }

    @Test
    void sameConfigSameJson() {
        Out a = run(EXAMPLE, null, opts("workload.num_requests=200"));
        Out b = run(EXAMPLE, null, opts("workload.num_requests=200"));
        assertEquals(0, a.code(), a.err());
        assertEquals(a.out(), b.out());
    }

    @Test
    void flagsAreOverridesOfConfigPaths() throws Exception {
        ConfigOptions o = opts();
        o.numRequests = 50L;
        o.latencyModel = "roofline";
        o.maxNumSeqs = 4;
        Out r = run(EXAMPLE, null, o);
        assertEquals(0, r.code(), r.err());
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertEquals("roofline", json.get("latency_model").asText());
        assertEquals(50, json.get("injected").asInt());
        assertTrue(json.get("batch_size_mean").asDouble() <= 4.0);
        assertEquals("derived from GPU memory", json.get("kv_capacity_source").asText());
    }

    @Test
    void configErrorsExitTwoWithPaths() {
        ConfigOptions o = opts("engine.max_num_seqs=0");
        o.hardware = "H9000";
        Out r = run(EXAMPLE, null, o);
        assertEquals(Main.CONFIG_ERROR, r.code());
        assertTrue(r.err().contains("engine.max_num_seqs: must be in [1, 1048576], got 0"), r.err());
        assertEquals("", r.out());

        Out unknownGpu = run(EXAMPLE, null, opts("deployment.hardware=H9000"));
        assertEquals(Main.CONFIG_ERROR, unknownGpu.code());
        assertTrue(unknownGpu.err().contains("unknown GPU 'H9000'"), unknownGpu.err());
        assertTrue(unknownGpu.err().contains("H100"), unknownGpu.err());
    }

    @Test
    void unwritableRequestsOutFailsBeforeRunning(@TempDir Path tmp) throws Exception {
        Path dirAsFile = Files.createDirectory(tmp.resolve("x.parquet"));
        Out r = run(EXAMPLE, dirAsFile, opts("workload.num_requests=10"));
        assertEquals(Main.CONFIG_ERROR, r.code());
        assertTrue(r.err().contains("--requests-out"), r.err());
        Out bad = run(EXAMPLE, tmp.resolve("out.txt"), opts("workload.num_requests=10"));
        assertEquals(Main.CONFIG_ERROR, bad.code());
    }

    @Test
    void unknownModelListsKnownOnes() {
        Out r = run(EXAMPLE, null, opts("deployment.model=acme/llm-9000"));
        assertEquals(Main.CONFIG_ERROR, r.code());
        assertTrue(r.err().contains("meta-llama/llama-3.1-8b-instruct"), r.err());
    }

    @Test
    void validateAndParseErrors() {
        assertEquals(0, Main.execute("validate", EXAMPLE.toString()));
        assertEquals(Main.CONFIG_ERROR, Main.execute("validate", EXAMPLE.toString(), "--set", "engine.nope=1"));
        assertEquals(Main.CONFIG_ERROR, Main.execute("run", "--no-such-flag"));
    }
}
