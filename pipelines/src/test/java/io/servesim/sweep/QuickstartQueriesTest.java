package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's quickstart on a reduced copy (400 instead of 4,000 trace requests; same 12 cells),
 * then the exact queries of {@code sweeps/quickstart-queries.sql}, which docs/sweeps.md shows verbatim
 * (only their {@code out/quickstart/} prefix pointed at the test's output), through DuckDB JDBC.
 */
class QuickstartQueriesTest {
    private static final Path SWEEPS = Path.of("..", "sweeps").toAbsolutePath().normalize();
    private static final Set<String> ROUTINGS = Set.of("round-robin", "least-loaded", "kv-router", "weighted-scoring");

    @Test
    void quickstartQueriesGiveNonTrivialAnswers(@TempDir Path tmp) throws Exception {
        // the bundled trace excerpt (sweeps/data)
        Path trace = SWEEPS.resolve("data/mooncake-conversation-first4000.jsonl").toAbsolutePath().normalize();
        String sweep = Files.readString(SWEEPS.resolve("quickstart.yaml"))
                .replace("max_requests: 4000", "max_requests: 400")
                .replace("path: data/mooncake-conversation-first4000.jsonl", "path: " + trace);
        assertTrue(sweep.contains("max_requests: 400\n") && sweep.contains(trace.toString()), "quickstart.yaml changed shape");
        Path out = tmp.resolve("out");
        TestSweeps.Run run = TestSweeps.run(TestSweeps.write(tmp, "quickstart", sweep), out, TestSweeps.direct(null));
        assertEquals(0, run.code(), run.err());

        String sql = Files.readString(SWEEPS.resolve("quickstart-queries.sql"));
        String doc = Files.readString(SWEEPS.resolveSibling("docs").resolve("sweeps.md"));
        assertTrue(doc.contains(sql.substring(sql.indexOf("-- 1.")).strip()), "docs/sweeps.md shows the queries of quickstart-queries.sql");
        List<String> queries = queries(sql, out);
        assertEquals(3, queries.size());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            // 1: 4 routings x 3 loads, attainments are fractions, and load hurts TTFT for every policy
            List<Object[]> byPolicy = rows(st, queries.get(0));
            assertEquals(12, byPolicy.size());
            for (Object[] r : byPolicy) {
                double slo = ((Number) r[2]).doubleValue();
                assertTrue(slo >= 0 && slo <= 1 && ((Number) r[3]).doubleValue() > 0, Arrays.toString(r));
            }
            for (int p = 0; p < 4; p++) {
                double low = ((Number) byPolicy.get(3 * p)[3]).doubleValue();
                double high = ((Number) byPolicy.get(3 * p + 2)[3]).doubleValue();
                assertTrue(high > low, "TTFT p99 at 3x load > at 1x for " + byPolicy.get(3 * p)[0]);
            }
            // 2: every policy has requests with at least half of the prompt cached and requests without
            List<Object[]> cached = rows(st, queries.get(1));
            assertEquals(8, cached.size(), "4 routings x {half cached, not}");
            assertTrue(cached.stream().allMatch(r -> ((Number) r[2]).longValue() > 0));
            // 3: one best routing per load level, and it is one of the swept policies
            List<Object[]> best = rows(st, queries.get(2));
            assertEquals(List.of("1", "2", "3"), best.stream().map(r -> r[0].toString()).toList());
            assertTrue(best.stream().allMatch(r -> ROUTINGS.contains(r[1].toString())), "best routings");
        }
    }

    /** The statements of the file, each pointed at {@code out}. */
    private static List<String> queries(String sql, Path out) {
        List<String> statements = new ArrayList<>();
        for (String s : sql.split(";\\s*\n")) {
            String body = s.lines().filter(l -> !l.startsWith("--")).reduce("", (a, b) -> a + b + "\n").trim();
            if (!body.isEmpty()) {
                statements.add(body.replace("'out/quickstart/", "'" + out.toAbsolutePath() + "/"));
            }
        }
        return statements;
    }

    private static List<Object[]> rows(Statement st, String sql) throws Exception {
        List<Object[]> rows = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                Object[] r = new Object[n];
                for (int i = 0; i < n; i++) {
                    r[i] = rs.getObject(i + 1);
                }
                rows.add(r);
            }
        }
        return rows;
    }
}
