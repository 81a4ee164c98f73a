package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Policies as code from the command line: every example bundle of {@code sweeps/policies/} runs; a code router that
 * takes the instances in turn gives round-robin's request rows exactly (read back with DuckDB); a call over its budget
 * fails the run naming the file; a sweep over candidate bundles that name code runs, its cells bound with the source
 * relative to the base (so a cell's id does not depend on the checkout's location), a candidate that throws becoming
 * error rows while the others finish, one that does not compile refused before any cell runs.
 */
class CodePolicyRunTest {
    private static final Path POLICIES = Path.of("..", "sweeps", "policies");
    private static final Path BASE = Path.of("..", "sweeps", "configs", "llama8b-h100-4x.yaml");
    /** round-robin as code. */
    private static final String TURNS = """
            import io.servesim.policy.api.*;

            /** round-robin as code: the instances in turn. */
            public final class Turns implements RoutingPolicy {
                private int next;

                public int route(RequestView r, Instances in, long now) {
                    int i = next % in.count();
                    next = (i + 1) % in.count();
                    return i;
                }
            }
            """;

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "code-routing.yaml,    ../sweeps/configs/llama8b-h100-4x.yaml",
        "code-admission.yaml,  ../sweeps/configs/llama8b-h100-4x.yaml",
        "code-priority.yaml,   ../sweeps/configs/llama8b-h100-4x.yaml",
        "code-scheduler.yaml,  ../sweeps/configs/llama8b-h100-4x.yaml",
        "code-autoscale.yaml,  src/test/resources/autoscaling/autoscaled-8b.yaml"})
    void everyExampleBundleRuns(String bundle, String base) throws Exception {
        CliRun.Result r = CliRun.exec("run", "-c", base, "--policy-config", POLICIES.resolve(bundle).toString(),
                "--num-requests", "300");
        assertEquals(0, r.code(), r.err());
        JsonNode s = r.json();
        // always-admit but for code-admission, which paces (delays) and never rejects: every request completes
        assertEquals(300, s.get("completed").asLong(), r.out());
        assertEquals(0, s.get("rejected").asLong());
    }

    @Test
    void aCodeRouterTakingTurnsGivesRoundRobinsRows(@TempDir Path tmp) throws Exception {
        Files.writeString(tmp.resolve("Turns.java"), TURNS);
        Files.writeString(tmp.resolve("turns.yaml"), "routing: {name: code, params: {source: Turns.java}}\n");
        Path code = tmp.resolve("code.parquet");
        Path template = tmp.resolve("template.parquet");
        CliRun.Result a = CliRun.exec("run", "-c", BASE.toString(), "--num-requests", "1000", "--policy-config",
                tmp.resolve("turns.yaml").toString(), "--requests-out", code.toString());
        CliRun.Result b = CliRun.exec("run", "-c", BASE.toString(), "--num-requests", "1000", "--routing-policy", "round-robin",
                "--requests-out", template.toString());
        assertEquals(0, a.code(), a.err());
        assertEquals(0, b.code(), b.err());
        assertEquals(b.out(), a.out(), "the same summary");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            ResultSet diff = st.executeQuery("SELECT count(*) FROM (SELECT * FROM '" + code + "' EXCEPT SELECT * FROM '"
                    + template + "')");
            diff.next();
            assertEquals(0, diff.getLong(1), "every row as round-robin's");
            // 1,000 requests in turn over 4 instances: 250 each
            ResultSet per = st.executeQuery("SELECT instance_id, count(*) FROM '" + code + "' GROUP BY 1 ORDER BY 1");
            List<String> rows = new ArrayList<>();
            while (per.next()) {
                rows.add(per.getInt(1) + ":" + per.getLong(2));
            }
            assertEquals(List.of("0:250", "1:250", "2:250", "3:250"), rows);
        }
    }

    @Test
    void aCallOverItsBudgetFailsTheRunNamingTheFileAndLine(@TempDir Path tmp) throws Exception {
        Files.writeString(tmp.resolve("Spin.java"), """
                import io.servesim.policy.api.*;
                public final class Spin implements AdmissionPolicy {
                    public Admission decide(RequestView r, long now) { long x = 0; while (x >= 0) { x = x + 0; } return Admission.admit(); }
                }
                """);
        Files.writeString(tmp.resolve("spin.yaml"), "admission: {name: code, params: {source: Spin.java, call_budget: 100ms}}\n");
        CliRun.Result r = CliRun.exec("run", "-c", BASE.toString(), "--num-requests", "10", "--policy-config",
                tmp.resolve("spin.yaml").toString());
        assertEquals(1, r.code(), r.err());
        // decide and its loop are line 3: it stops at one of their checks
        assertEquals("servesim run: policies.admission (Spin.java): decide ran longer than its call budget of 100 ms at"
                + " Spin.java:3\n", r.err());
    }

    @Test
    void aConstructorThatThrowsIsTheRunsFailureNotTheConfigs(@TempDir Path tmp) throws Exception {
        Files.writeString(tmp.resolve("Ctor.java"), """
                import io.servesim.policy.api.*;
                public class Ctor implements RoutingPolicy {
                    public Ctor() { throw new IllegalStateException("no"); }
                    public int route(RequestView r, Instances in, long now) { return 0; }
                }
                """);
        Files.writeString(tmp.resolve("ctor.yaml"), "routing: {name: code, params: {source: Ctor.java}}\n");
        CliRun.Result r = CliRun.exec("run", "-c", BASE.toString(), "--num-requests", "10", "--policy-config",
                tmp.resolve("ctor.yaml").toString());
        assertEquals(1, r.code(), r.err());
        assertEquals("servesim run: cannot start the run of " + BASE + ": policies.routing (Ctor.java): its constructor"
                + " threw IllegalStateException: no at Ctor.java:3\n", r.err());
    }

    /**
     * A sweep over candidate bundles, two seeds each: a code router's source is named relative to the base config in
     * the cells (so a cell's id does not depend on where the checkout is); round-robin as code gives round-robin's
     * cells exactly, seed by seed, though the cells run in parallel; a code router that throws mid-run becomes one
     * {@code errors/} row per cell, naming its file and line, and the other cells finish (exit 1).
     */
    @Test
    void aSweepOverCodeCandidatesRunsEachAndKeepsWhatFinishedWhenOneThrows(@TempDir Path tmp) throws Exception {
        Path cands = Files.createDirectories(tmp.resolve("cands"));
        Files.copy(POLICIES.resolve("code").resolve("PrefixAwareLeastLoad.java"), cands.resolve("Prefix.java"));
        Files.writeString(cands.resolve("prefix.yaml"), "routing: {name: code, params: {source: Prefix.java}}\n");
        Files.writeString(cands.resolve("Turns.java"), TURNS);
        Files.writeString(cands.resolve("turns.yaml"), "routing: {name: code, params: {source: Turns.java}}\n");
        Files.writeString(cands.resolve("rr.yaml"), "routing: round-robin\n");
        Files.writeString(cands.resolve("Broken.java"), """
                import io.servesim.policy.api.*;
                public final class Broken implements RoutingPolicy {
                    private int calls;
                    public int route(RequestView r, Instances in, long now) {
                        if (++calls > 100) {
                            throw new IllegalStateException("gave up after 100 requests");
                        }
                        return 0;
                    }
                }
                """);
        Files.writeString(cands.resolve("broken.yaml"), "routing: {name: code, params: {source: Broken.java}}\n");
        Path base = Files.createDirectories(tmp.resolve("base")).resolve("run.yaml");
        Files.writeString(base, Files.readString(BASE).replace("num_requests: 2000", "num_requests: 400"));
        Path sweep = tmp.resolve("code.yaml");
        Files.writeString(sweep, "name: code\nbase: base/run.yaml\naxes: [{name: candidate, policy_configs:"
                + " [cands/prefix.yaml, cands/turns.yaml, cands/rr.yaml, cands/broken.yaml]}]\n"
                + "seeds: [1, 2]\noutputs: {requests: false, sessions: false}\n");
        Path out = tmp.resolve("out");
        CliRun.Result r = CliRun.exec("sweep", sweep.toString(), "--output", out.toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("2 of 8 cells failed at run time"), r.err());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            ResultSet rs = st.executeQuery("SELECT candidate, seed, completed FROM '" + out + "/cells/*.parquet'"
                    + " ORDER BY 1, 2");
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(rs.getString(1) + "@" + rs.getLong(2) + ":" + rs.getLong(3));
            }
            assertEquals(List.of("cands/prefix.yaml@1:400", "cands/prefix.yaml@2:400", "cands/rr.yaml@1:400",
                    "cands/rr.yaml@2:400", "cands/turns.yaml@1:400", "cands/turns.yaml@2:400"), rows);
            String cells = "SELECT * EXCLUDE (cell_id, cell_index, candidate) FROM '" + out + "/cells/*.parquet'";
            ResultSet diff = st.executeQuery("SELECT count(*) FROM ((" + cells + " WHERE candidate = 'cands/turns.yaml'"
                    + " EXCEPT " + cells + " WHERE candidate = 'cands/rr.yaml') UNION ALL (" + cells
                    + " WHERE candidate = 'cands/rr.yaml' EXCEPT " + cells + " WHERE candidate = 'cands/turns.yaml'))");
            diff.next();
            assertEquals(0, diff.getLong(1), "round-robin as code gives round-robin's cells, seed by seed");
            // the 101st route throws, at line 6 of Broken.java
            ResultSet errors = st.executeQuery("SELECT candidate, seed, message FROM '" + out + "/errors/*.parquet'"
                    + " ORDER BY 2");
            for (long seed = 1; seed <= 2; seed++) {
                assertTrue(errors.next());
                assertEquals("cands/broken.yaml@" + seed, errors.getString(1) + "@" + errors.getLong(2));
                assertTrue(errors.getString(3).contains("(Broken.java): route threw IllegalStateException: gave up"
                        + " after 100 requests at Broken.java:6"), errors.getString(3));
            }
            assertFalse(errors.next());
        }
        // the cell names the source relative to the base config's directory (base/), not by its absolute path
        String sweepFile = Files.readString(out.resolve("_SWEEP.yaml"));
        assertTrue(sweepFile.contains("../cands/Prefix.java") && !sweepFile.contains(tmp.toString() + "/cands/Prefix.java"),
                sweepFile);
    }

    /**
     * A sweep axis's inline value names code as a config does, its source relative to the base config; one whose
     * source does not compile is listed, file and line, before any cell runs (exit 2).
     */
    @Test
    void aSweepAxisValueThatDoesNotCompileIsRefusedBeforeAnyCellRuns(@TempDir Path tmp) throws Exception {
        Path base = Files.createDirectories(tmp.resolve("base")).resolve("run.yaml");
        Files.copy(BASE, base);
        Files.writeString(base.resolveSibling("Bad.java"), """
                import io.servesim.policy.api.*;
                public final class Bad implements RoutingPolicy {
                    public int route(RequestView r, Instances in, long now) { return 0 }
                }
                """);
        Path sweep = tmp.resolve("code.yaml");
        Files.writeString(sweep, """
                name: code
                base: base/run.yaml
                axes:
                  - name: routing
                    values:
                      rr: {policies.routing: round-robin}
                      bad: {policies.routing: {name: code, params: {source: Bad.java}}}
                seeds: [1]
                """);
        Path out = tmp.resolve("out");
        CliRun.Result r = CliRun.exec("sweep", sweep.toString(), "--output", out.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("1 of 2 cells are invalid"), r.err());
        assertTrue(r.err().contains("routing=bad"), r.err());
        assertTrue(r.err().contains("policies.routing.params.source: Bad.java:3: ';' expected"), r.err());
        assertFalse(Files.exists(out), "nothing ran");
    }
}
