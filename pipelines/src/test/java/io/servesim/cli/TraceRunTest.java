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
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code servesim run} with decision traces: files by extension, the summary, refused combinations. */
class TraceRunTest {
    private static final Path EXAMPLE = Path.of("..", "sweeps", "configs", "llama8b-h100.yaml");

    private record Out(int code, String out, String err) {
    }

    private static Out run(TraceFlags trace) {
        ConfigOptions o = new ConfigOptions();
        o.sets = new ArrayList<>(List.of("workload.num_requests=150", "deployment.instances=3",
                "policies.routing.name=weighted-scoring"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = RunCommand.run(EXAMPLE, null, null, null, false, o, trace, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        return new Out(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static TraceFlags flags(String level, Path out, int k, boolean summarize) {
        TraceFlags t = new TraceFlags();
        t.level = level;
        t.out = out;
        t.counterfactualK = k;
        t.summarize = summarize;
        return t;
    }

    @Test
    void jsonlAndParquetHoldTheSameDecisions(@TempDir Path tmp) throws Exception {
        Path jsonl = tmp.resolve("d.jsonl");
        Path parquet = tmp.resolve("d.parquet");
        Out a = run(flags("detailed", jsonl, 2, false));
        Out b = run(flags("detailed", parquet, 2, false));
        assertEquals(0, a.code(), a.err());
        assertEquals(0, b.code(), b.err());
        assertEquals(a.out(), b.out(), "the trace does not change the run");
        List<String> lines = Files.readAllLines(jsonl);
        // 150 requests, always-admit: one admission, priority and routing decision each (no preemption at this load)
        assertEquals(450, lines.size());
        JsonNode routed = new ObjectMapper().readTree(lines.stream().filter(l -> l.contains("\"routing\"")).findFirst().orElseThrow());
        assertEquals(2, routed.get("candidates").size());
        assertEquals(3, routed.get("loads").size());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
             ResultSet rs = c.createStatement().executeQuery("SELECT count(*), count(*) FILTER (WHERE kind = 'routing'"
                     + " AND len(candidates) = 2 AND score_regret <= 0), count(*) FILTER (WHERE kind = 'routing'"
                     + " AND len(prefix_overlap_blocks) = 3) FROM '" + parquet + "'")) {
            rs.next();
            assertEquals(450, rs.getLong(1));
            assertEquals(150, rs.getLong(2));
            assertEquals(150, rs.getLong(3), "weighted-scoring reads the prefix index: every routing row measured it");
        }
        // a regret or value that was not computed is null, not NaN, so avg() skips it: 150 routing decisions with
        // 2 scored candidates each have a regret (<= 0, so the mean is finite), the 300 admission and priority rows none
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
             ResultSet rs = c.createStatement().executeQuery("SELECT count(score_regret), avg(score_regret),"
                     + " count(*) FILTER (WHERE isnan(score_regret) OR isnan(value)) FROM '" + parquet + "'")) {
            rs.next();
            assertEquals(150, rs.getLong(1));
            assertTrue(Double.isFinite(rs.getDouble(2)) && rs.getDouble(2) <= 0, "avg(score_regret) " + rs.getDouble(2));
            assertEquals(0, rs.getLong(3));
        }
    }

    @Test
    void theSummaryGoesIntoTheJson() throws Exception {
        Out o = run(flags("decisions", null, 3, true));
        assertEquals(0, o.code(), o.err());
        JsonNode s = new ObjectMapper().readTree(o.out()).get("trace_summary");
        assertEquals(450, s.get("decisions").asLong());
        assertEquals(150, s.get("by_policy").get("routing/weighted-scoring").asLong());
        assertEquals(150, s.get("scored_routings").asLong());
        assertEquals(TraceFlags.WORST_DECISIONS, s.get("worst_decisions").size());
        assertTrue(s.get("text").asText().contains("score regret"), s.get("text").asText());
    }

    @Test
    void sampledDecisionsAreReSimulatedForRealizedRegret() throws Exception {
        TraceFlags t = flags("decisions", null, 2, true);
        t.counterfactualSample = 2;
        Out o = run(t);
        assertEquals(0, o.code(), o.err());
        JsonNode s = new ObjectMapper().readTree(o.out()).get("trace_summary");
        // two sampled decisions x one alternative each (K = 2)
        assertEquals(2, s.get("realized_regret").size());
        JsonNode r = s.get("realized_regret").get(0);
        assertTrue(r.get("alternative").asInt() != r.get("chosen").asInt());
        assertTrue(r.has("request_ttft_gain_ms") && r.has("cluster_ttft_gain_ms") && r.has("disagrees"));
        assertEquals(o.out(), run(t).out(), "the sample is seeded by the run's seed");
        TraceFlags noSummary = flags("decisions", null, 2, false);
        noSummary.counterfactualSample = 2;
        noSummary.out = Path.of("unused.jsonl");
        assertEquals(2, run(noSummary).code());
    }

    @Test
    void tracingOffAddsNothingToTheJson() throws Exception {
        Out o = run(flags("none", null, 0, false));
        assertEquals(0, o.code(), o.err());
        assertFalse(new ObjectMapper().readTree(o.out()).has("trace_summary"));
    }

    @Test
    void combinationsThatWouldDoNothingAreRefused(@TempDir Path tmp) {
        Out noLevel = run(flags("none", tmp.resolve("d.jsonl"), 0, false));
        assertEquals(2, noLevel.code());
        assertTrue(noLevel.err().contains("--trace-level"), noLevel.err());
        Out nowhere = run(flags("decisions", null, 0, false));
        assertEquals(2, nowhere.code());
        assertTrue(nowhere.err().contains("--trace-out FILE or --summarize-trace"), nowhere.err());
        Out csv = run(flags("decisions", tmp.resolve("d.csv"), 0, false));
        assertEquals(2, csv.code());
        assertTrue(csv.err().contains(".parquet or .jsonl"), csv.err());
        Out level = run(flags("loud", null, 0, true));
        assertEquals(2, level.code());
        assertTrue(level.err().contains("valid: none, decisions, detailed"), level.err());
    }
}
