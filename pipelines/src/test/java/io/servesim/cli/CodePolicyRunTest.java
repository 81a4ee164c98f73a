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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Policies as code from the command line: every example bundle of {@code sweeps/policies/} runs; a code router that
 * takes the instances in turn gives round-robin's request rows exactly (read back with DuckDB); a call over its budget
 * fails the run naming the file; a sweep over candidate bundles that name code runs, its cells bound with the source
 * relative to the base (so a cell's id does not depend on the checkout's location).
 */
class CodePolicyRunTest {
    private static final Path POLICIES = Path.of("..", "sweeps", "policies");
    private static final Path BASE = Path.of("..", "sweeps", "configs", "llama8b-h100-4x.yaml");

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
        Path source = tmp.resolve("Turns.java");
        Files.writeString(source, """
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
                """);
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
    void aSweepOverCodeCandidatesRunsWithSourcesRelativeToTheBase(@TempDir Path tmp) throws Exception {
        Path cands = Files.createDirectories(tmp.resolve("cands"));
        Files.copy(POLICIES.resolve("code").resolve("PrefixAwareLeastLoad.java"), cands.resolve("Prefix.java"));
        Files.writeString(cands.resolve("prefix.yaml"), "routing: {name: code, params: {source: Prefix.java}}\n");
        Files.writeString(cands.resolve("turns.yaml"), "routing: round-robin\n");
        Path base = Files.createDirectories(tmp.resolve("base")).resolve("run.yaml");
        Files.writeString(base, Files.readString(BASE).replace("num_requests: 2000", "num_requests: 400"));
        Path sweep = tmp.resolve("code.yaml");
        Files.writeString(sweep, "name: code\nbase: base/run.yaml\n"
                + "axes: [{name: candidate, policy_configs: [cands/prefix.yaml, cands/turns.yaml]}]\n"
                + "seeds: [1]\noutputs: {requests: false, sessions: false}\n");
        Path out = tmp.resolve("out");
        CliRun.Result r = CliRun.exec("sweep", sweep.toString(), "--output", out.toString());
        assertEquals(0, r.code(), r.err());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT candidate, completed FROM '" + out + "/cells/*.parquet' ORDER BY 1")) {
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(rs.getString(1) + ":" + rs.getLong(2));
            }
            assertEquals(List.of("cands/prefix.yaml:400", "cands/turns.yaml:400"), rows);
        }
        // the cell names the source relative to the base config's directory (base/), not by its absolute path
        String sweepFile = Files.readString(out.resolve("_SWEEP.yaml"));
        assertTrue(sweepFile.contains("../cands/Prefix.java") && !sweepFile.contains(tmp.toString() + "/cands/Prefix.java"),
                sweepFile);
    }
}
