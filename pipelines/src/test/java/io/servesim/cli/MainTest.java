package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servesim.exit.ExitCode;
import io.servesim.run.PolicyKind;
import io.servesim.testing.RepoFiles;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI commands in-process: JSON summary, determinism, error paths and exit codes. */
class MainTest {
    private static final Path EXAMPLE = Path.of("..", "sweeps", "configs", "llama8b-h100.yaml");

    private record Out(int code, String out, String err) {
    }

    private static Out run(Path config, Path requestsOut, ConfigOptions options) {
        return run(config, requestsOut, null, options);
    }

    private static Out run(Path config, Path requestsOut, Path sessionsOut, ConfigOptions options) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = RunCommand.run(config, requestsOut, sessionsOut, null, options, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
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
        o.settings.put(io.servesim.workload.WorkloadSettings.NUM_REQUESTS, "50");
        o.settings.put(io.servesim.run.DeploymentSettings.LATENCY_MODEL, "roofline");
        o.settings.put(io.servesim.engine.EngineSettings.MAX_NUM_SEQS, "4");
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
        o.settings.put(io.servesim.run.DeploymentSettings.HARDWARE, "H9000");
        Out r = run(EXAMPLE, null, o);
        assertEquals(ExitCode.CONFIG_ERROR, r.code());
        assertTrue(r.err().contains("engine.max_num_seqs: must be in [1, 1048576] requests, got 0"), r.err());
        assertEquals("", r.out());

        Out unknownGpu = run(EXAMPLE, null, opts("deployment.hardware=H9000"));
        assertEquals(ExitCode.CONFIG_ERROR, unknownGpu.code());
        assertTrue(unknownGpu.err().contains("unknown GPU 'H9000'"), unknownGpu.err());
        assertTrue(unknownGpu.err().contains("H100"), unknownGpu.err());
    }

    @Test
    void unwritableRequestsOutFailsBeforeRunning(@TempDir Path tmp) throws Exception {
        Path dirAsFile = Files.createDirectory(tmp.resolve("x.parquet"));
        Out r = run(EXAMPLE, dirAsFile, opts("workload.num_requests=10"));
        assertEquals(ExitCode.CONFIG_ERROR, r.code());
        assertTrue(r.err().contains("--requests-out"), r.err());
        Out bad = run(EXAMPLE, tmp.resolve("out.txt"), opts("workload.num_requests=10"));
        assertEquals(ExitCode.CONFIG_ERROR, bad.code());
    }

    @Test
    void agenticRunWritesSessionsThatJoinTheirRequests(@TempDir Path tmp) throws Exception {
        Path requests = tmp.resolve("r.parquet");
        Path sessions = tmp.resolve("s.parquet");
        Out r = run(EXAMPLE, requests, sessions, opts("workload=../workloads/agentic-mix.yaml",
                "horizon_us=60000000"));
        assertEquals(0, r.code(), r.err());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            // every completed session's llm_calls equals the count of its completed requests
            ResultSet rs = st.executeQuery("SELECT count(*), count(*) FILTER (WHERE s.llm_calls = q.n),"
                    + " count(DISTINCT s.workflow) FROM '" + sessions + "' s JOIN (SELECT session_id, count(*) n FROM '"
                    + requests + "' WHERE status = 'completed' GROUP BY session_id) q USING (session_id)"
                    + " WHERE s.status = 'completed'");
            rs.next();
            assertTrue(rs.getLong(1) > 5, "completed sessions " + rs.getLong(1));
            assertEquals(rs.getLong(1), rs.getLong(2));
            assertEquals(2, rs.getLong(3), "react and tree-of-thought");
            // tree-of-thought's 16 expansions carry fan-out indices 0..15 of one step
            rs = st.executeQuery("SELECT max(fan_out_index), count(*) FILTER (WHERE step_id IS NULL) FROM '" + requests + "'");
            rs.next();
            assertEquals(15, rs.getInt(1));
            assertEquals(0, rs.getLong(2), "every request of this workload is an agentic step");
        }
        assertTrue(r.out().contains("\"sessions\""), "summary has the per-client sessions block");
    }

    @Test
    void unknownModelListsKnownOnes() {
        Out r = run(EXAMPLE, null, opts("deployment.model=acme/llm-9000"));
        assertEquals(ExitCode.CONFIG_ERROR, r.code());
        assertTrue(r.err().contains("meta-llama/llama-3.1-8b-instruct"), r.err());
    }

    @Test
    void validateAndParseErrors() {
        assertEquals(0, Main.execute("validate", EXAMPLE.toString()));
        assertEquals(ExitCode.CONFIG_ERROR, Main.execute("validate", EXAMPLE.toString(), "--set", "engine.nope=1"));
        assertEquals(ExitCode.CONFIG_ERROR, Main.execute("run", "--no-such-flag"));
    }

    @Test
    void badTraceLineStopsTheRunUnlessSkipped(@TempDir Path tmp) throws Exception {
        Path trace = tmp.resolve("t.csv");
        Files.writeString(trace, "arrival_us,input_tokens,output_tokens\n0,100,10\n1000,oops,10\n2000,50,5\n");
        Path cfg = tmp.resolve("cfg.yaml");
        Files.writeString(cfg, "deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100}\n"
                + "workload: {trace: {format: csv, path: t.csv}}\n");
        Out bad = run(cfg, null, opts());
        assertEquals(ExitCode.CONFIG_ERROR, bad.code(), bad.err());
        assertTrue(bad.err().contains("t.csv:3"), bad.err());
        ConfigOptions skip = opts();
        skip.settings.put(io.servesim.workload.TraceSettings.SKIP_BAD_LINES, "true");
        Out ok = run(cfg, null, skip);
        assertEquals(0, ok.code(), ok.err());
        JsonNode json = new ObjectMapper().readTree(ok.out());
        assertEquals(1, json.get("skipped_trace_lines").asInt());
        assertEquals(2, json.get("completed").asInt());
    }

    @Test
    void clusterFlagsAndPolicyBundle(@TempDir Path tmp) throws Exception {
        Path bundle = tmp.resolve("bundle.yaml");
        Files.writeString(bundle, "routing: least-loaded\nadmission: {name: token-bucket, params: {capacity: 5, refill_per_s: 1}}\n");
        ConfigOptions o = opts("workload.num_requests=100");
        o.policyConfig = bundle;
        o.settings.put(io.servesim.run.DeploymentSettings.INSTANCES, "3");
        o.settings.put(io.servesim.run.RunSettings.FITNESS_WEIGHTS, "throughput_rps:1");
        Out r = run(EXAMPLE, null, o);
        assertEquals(0, r.code(), r.err());
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertEquals(3, json.get("cluster").get("instances").asInt());
        assertTrue(json.get("rejected").asInt() > 0, "token bucket of 5 at 1/s must reject some of 100 requests at 8/s");
        // throughput_rps scores the rate served over the rate offered: rejected requests lower it
        assertEquals(Math.min(1, json.get("throughput_rps").asDouble() / json.get("offered_rps").asDouble()),
                json.get("cluster").get("fitness").asDouble(), 1e-9);
        assertTrue(json.get("cluster").get("fitness").asDouble() < 1);
        o.settings.put(PolicyKind.ROUTING.nameSetting(), "round-robin");
        Files.writeString(bundle, "routing: least-loaded\npreemption: none\n");
        Out badBundle = run(EXAMPLE, null, o);
        assertEquals(ExitCode.CONFIG_ERROR, badBundle.code());
        assertTrue(badBundle.err().contains("bundle.yaml: preemption: unknown policy kind; valid: admission, priority, routing, scheduler, autoscale"),
                badBundle.err());
    }

    /** A name flag beside a --set of one of the policy's params sets the name only, as a param flag makes it do. */
    @Test
    void aPolicyNameFlagKeepsTheParamsASetGives() throws Exception {
        // token-bucket of 5 at 1/s rejects some of 100 requests at 8/s; refilled at 1,000/s it rejects none
        ConfigOptions slow = opts("workload.num_requests=100", "policies.admission.params.capacity=5",
                "policies.admission.params.refill_per_s=1");
        slow.settings.put(PolicyKind.ADMISSION.nameSetting(), "token-bucket");
        Out a = run(EXAMPLE, null, slow);
        assertEquals(0, a.code(), a.err());
        assertTrue(new ObjectMapper().readTree(a.out()).get("rejected").asInt() > 0, a.out());
        ConfigOptions fast = opts("workload.num_requests=100", "policies.admission.params.capacity=5",
                "policies.admission.params.refill_per_s=1000");
        fast.settings.put(PolicyKind.ADMISSION.nameSetting(), "token-bucket");
        Out b = run(EXAMPLE, null, fast);
        assertEquals(0, b.code(), b.err());
        assertEquals(0, new ObjectMapper().readTree(b.out()).get("rejected").asInt(), b.out());
    }

    @Test
    void benchThreadsAndPassesAreCheckedAndOnlyForSweeps() {
        String text = capture(System::setErr, System.err, () -> {
            assertEquals(ExitCode.CONFIG_ERROR, Main.execute("bench", "--threads", "2"));
            assertEquals(ExitCode.CONFIG_ERROR, Main.execute("bench", "--passes", "2"));
            assertEquals(ExitCode.CONFIG_ERROR, Main.execute("bench", "--sweep", "../sweeps/bench/bench-1.yaml",
                    "--threads", "0", "--passes", "0"));
        });
        assertTrue(text.contains("--threads only applies with --sweep"), text);
        assertTrue(text.contains("--passes only applies with --sweep"), text);
        // both bad counts are reported by the one call
        assertTrue(text.contains("--threads must be >= 1, got 0"), text);
        assertTrue(text.contains("--passes must be >= 1, got 0"), text);
    }

    @Test
    void benchSweepPrintsOneLinePerPass() {
        String text = capture(System::setOut, System.out, () -> assertEquals(0,
                Main.execute("bench", "--sweep", "../sweeps/bench/bench-1.yaml", "--passes", "2", "--threads", "2")));
        String[] lines = text.strip().split("\n");
        assertTrue(lines[0].contains("parallel loops over the kernel"), lines[0]);
        assertEquals(4, lines.length, text); // title, header, pass 1, pass 2
        // pass, cells, requests: bench-1.yaml is one cell of 2,000 requests
        assertTrue(lines[2].trim().matches("1\\s+1\\s+2000\\s.*"), lines[2]);
        assertTrue(lines[3].trim().matches("2\\s+1\\s+2000\\s.*"), lines[3]);
    }

    /** What {@code body} prints on the stream that {@code set} replaces ({@code saved} is put back). */
    private static String capture(java.util.function.Consumer<PrintStream> set, PrintStream saved, Runnable body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        set.accept(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            body.run();
        } finally {
            set.accept(saved);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aProfileDirectoryDrivesTheProfiledModelInRun(@TempDir Path tmp) throws Exception {
        Path profile = RepoFiles.data("profiling/llmservingsim_rtxpro6000_llama31_8b_tp1");
        Path config = tmp.resolve("c.yaml");
        Files.writeString(config, "deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: RTXPRO6000,"
                + " latency_model: profiled, profile: " + profile + "}\n"
                + "workload: {aggregate_rate: 5, num_requests: 40, input_distribution: {type: constant, params: {value: 256}},"
                + " output_distribution: {type: constant, params: {value: 16}}}\n");
        Out r = run(config, null, opts());
        assertEquals(0, r.code(), r.err());
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertEquals("profiled", json.get("latency_model").asText());
        assertEquals(40, json.get("completed").asInt());
        Files.writeString(config, Files.readString(config).replace("latency_model: profiled", "latency_model: roofline"));
        Out wrongKind = run(config, null, opts());
        assertEquals(ExitCode.CONFIG_ERROR, wrongKind.code());
        assertTrue(wrongKind.err().contains("deployment.profile: a profile directory is used only with latency_model: profiled"),
                wrongKind.err());
    }
}
