package io.servesim.evolve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.cli.Main;
import io.servesim.plan.TestPlans;
import io.servesim.run.PolicyBundleFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code servesim evolve} end to end through the CLI, read back with DuckDB: one generations/ row per candidate x
 * generation, exactly one best, the best's fitness the highest; comparison/ holds the best and each baseline on both
 * splits; best-policy.yaml is a policy bundle that {@code run --policy-config} takes; and the same file and seed give
 * the same rows, another seed other candidates.
 */
class EvolveCommandTest {
    @Test
    void writesGenerationsComparisonAndAUsableBestPolicy(@TempDir Path tmp) throws Exception {
        Path file = Files.writeString(tmp.resolve("e.yaml"), TestSearches.small("tiny", 2, 1));
        Path out = tmp.resolve("out");
        assertEquals(0, Main.execute("evolve", file.toString(), "--output", out.toString()));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            // generation 0 is the start point alone, then 2 generations of 3: 1 + 2 x 3 = 7 rows
            ResultSet r = s.executeQuery("SELECT count(*), count(*) FILTER (WHERE best), max(fitness),"
                    + " max(fitness) FILTER (WHERE best), min(routing_cache_affinity), max(routing_load)"
                    + " FROM read_parquet('" + out.resolve("generations/*.parquet") + "')");
            r.next();
            assertEquals(7, r.getLong(1));
            assertEquals(1, r.getLong(2));
            assertEquals(r.getDouble(3), r.getDouble(4));
            assertTrue(r.getDouble(5) >= 0 && r.getDouble(6) <= 4, "candidates stay within the bounds");
            r = s.executeQuery("SELECT count(*), count(DISTINCT policy), count(DISTINCT split) FROM read_parquet('"
                    + out.resolve("comparison/*.parquet") + "')");
            r.next();
            assertEquals(6, r.getLong(1)); // best + 2 baselines, on train and held out
            assertEquals(3, r.getLong(2));
            assertEquals(2, r.getLong(3));
        }
        assertEquals("weighted-scoring", PolicyBundleFile.read(out.resolve("best-policy.yaml")).get("routing")
                .get("name").asText());
        assertTrue(Files.readString(out.resolve("report.html")).contains("Training fitness by generation"));
        Path config = Files.writeString(tmp.resolve("run.yaml"), """
                deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, instances: 2, latency_model: roofline}
                workload: {scenario: prefix-heavy, num_requests: 20, aggregate_rate: 20}
                """);
        assertEquals(0, Main.execute("run", "-c", config.toString(), "--policy-config",
                out.resolve("best-policy.yaml").toString()));

        Path again = tmp.resolve("again");
        assertEquals(0, Main.execute("evolve", file.toString(), "--output", again.toString()));
        assertEquals(0, TestPlans.rowsDiffer(out.resolve("generations/*.parquet"), again.resolve("generations/*.parquet")));
        Path other = tmp.resolve("other");
        Files.writeString(file, TestSearches.small("tiny", 2, 7));
        assertEquals(0, Main.execute("evolve", file.toString(), "--output", other.toString()));
        assertTrue(TestPlans.rowsDiffer(out.resolve("generations/*.parquet"), other.resolve("generations/*.parquet")) > 0,
                "another CMA-ES seed proposes other candidates");
    }

    /** An integer parameter is an integer column in generations/ and in best-policy.yaml, as the runs saw it. */
    @Test
    void anIntegerParameterIsWrittenAsAnInteger(@TempDir Path tmp) throws Exception {
        Path file = Files.writeString(tmp.resolve("e.yaml"), TestSearches.small("quota", 1, 1)
                .replace("policies: {routing: {name: weighted-scoring, params: {kv_utilization: 0}}}",
                        "policies: {admission: {name: tenant-quota}}")
                .replace("""
                          routing.cache_affinity: {min: 0, max: 4, start: 1, sigma: 1}
                          routing.load: {min: 0, max: 4, start: 1, sigma: 1}
                        """, "  admission.max_in_flight: {min: 1, max: 64, start: 10, sigma: 8}\n")
                .replace("baselines: {round-robin: {routing: {name: round-robin}}, least-loaded: {routing: {name: least-loaded}}}",
                        "baselines: {admit-all: {admission: {name: always-admit}}}"));
        Path out = tmp.resolve("out");
        assertEquals(0, Main.execute("evolve", file.toString(), "--output", out.toString()), Files.readString(file));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            ResultSet r = s.executeQuery("SELECT typeof(admission_max_in_flight), count(*),"
                    + " count(*) FILTER (WHERE admission_max_in_flight = 10 AND generation = 0)"
                    + " FROM read_parquet('" + out.resolve("generations/*.parquet") + "') GROUP BY 1");
            assertTrue(r.next());
            assertEquals("BIGINT", r.getString(1));
            assertEquals(4, r.getLong(2), "the start point, then one generation of 3");
            assertEquals(1, r.getLong(3), "the start point runs at its start, 10");
            assertFalse(r.next());
        }
        assertTrue(PolicyBundleFile.read(out.resolve("best-policy.yaml")).get("admission").get("params").get("max_in_flight")
                .isIntegralNumber());
    }

    /**
     * A round is a sweep's output, but its report goes outside the search's folder, which holds only the search's
     * files: {@code report} refuses to write into it, and the search then runs into its folder again.
     */
    @Test
    void aRoundsReportIsWrittenOutsideTheSearchsFolder(@TempDir Path tmp) throws Exception {
        Path file = Files.writeString(tmp.resolve("e.yaml"), TestSearches.small("tiny", 1, 1));
        Path out = tmp.resolve("out");
        assertEquals(0, Main.execute("evolve", file.toString(), "--output", out.toString()));
        Path round = out.resolve("rounds").resolve("gen-01");
        assertEquals(2, Main.execute("report", round.toString()));
        assertEquals(2, Main.execute("report", round.toString(), "--out", out.resolve("gen-01.html").toString()));
        assertFalse(Files.exists(round.resolve("report.html")) || Files.exists(out.resolve("gen-01.html")));
        assertEquals(0, Main.execute("report", round.toString(), "--out", tmp.resolve("out-gen-01.html").toString()));
        assertEquals(0, Main.execute("evolve", file.toString(), "--output", out.toString(), "--overwrite"));
    }

    /**
     * A baseline whose runs fail (a routing policy as code that throws) scores 0 on every split; the summary names it
     * instead of counting it as beaten, and the command exits 1 after writing every output, a second call to the
     * finished folder too.
     */
    @Test
    void aBaselineThatFailsIsNamedNotBeatenAndTheCommandFails(@TempDir Path tmp) throws Exception {
        Path source = Files.writeString(tmp.resolve("Broken.java"), """
                import io.servesim.policy.api.Instances;
                import io.servesim.policy.api.RequestView;
                import io.servesim.policy.api.RoutingPolicy;

                public final class Broken implements RoutingPolicy {
                    @Override
                    public int route(RequestView request, Instances instances, long nowUs) {
                        throw new IllegalStateException("broken on purpose");
                    }
                }
                """);
        String search = TestSearches.small("broken", 1, 1).replace("least-loaded: {routing: {name: least-loaded}}",
                "broken: {routing: {name: code, params: {source: '" + source + "'}}}");
        Path file = Files.writeString(tmp.resolve("e.yaml"), search);
        Path out = tmp.resolve("out");
        assertEquals(1, Main.execute("evolve", file.toString(), "--output", out.toString()));
        String summary = Files.readString(out.resolve("summary.txt"));
        assertTrue(summary.contains("did not finish: broken on the training split: 1 of 1 runs failed"), summary);
        assertTrue(summary.contains("did not finish: broken on the held-out split: 1 of 1 runs failed"), summary);
        assertTrue(summary.contains("not compared, runs failed: broken"), summary);
        // the table's columns stay aligned although "0.0000 (1 failed)" is wider than a fitness: every row as long
        java.util.List<String> table = summary.lines().dropWhile(l -> !l.startsWith("policy ")).takeWhile(l -> !l.isBlank()
                && !l.startsWith("on the ") && !l.startsWith("did not")).toList();
        assertTrue(table.size() >= 3 && table.stream().mapToInt(String::length).distinct().count() == 1, summary);
        assertTrue(Files.exists(out.resolve("best-policy.yaml")) && Files.exists(out.resolve("report.html")));
        assertEquals(1, Main.execute("evolve", file.toString(), "--output", out.toString()));
    }
}
