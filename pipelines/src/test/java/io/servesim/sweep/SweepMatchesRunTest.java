package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.cli.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep cell runs the unchanged kernel: its requests/, sessions/ and decisions/ rows, without the
 * sweep's key columns, are exactly the rows {@code servesim run --requests-out/--sessions-out/--trace-out}
 * writes for the same config and seed (checked with DuckDB {@code EXCEPT ALL} both ways, which
 * compares maps entry by entry in order). The agentic mix makes the rows exercise every column
 * type: strings, nullable strings, -1 sentinels, and the decision trace's lists, nested records and
 * maps (whose entries keep the order the trace gives them).
 */
class SweepMatchesRunTest {
    @Test
    void cellRowsEqualSingleRunRows(@TempDir Path tmp) throws Exception {
        Path workload = Path.of("..", "sweeps", "workloads", "agentic-mix.yaml").toAbsolutePath().normalize();
        Path base = tmp.resolve("base.yaml");
        Files.writeString(base, """
                deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1, instances: 2}
                horizon_us: 20000000
                workload: %s
                """.formatted(workload));
        Path sweep = TestSweeps.write(tmp, "one", """
                name: one
                base: base.yaml
                axes: [{name: routing, path: policies.routing.name, values: [kv-router]}]
                seeds: [7]
                outputs: {decisions: detailed}
                """);
        Path out = tmp.resolve("out");
        TestSweeps.Run s = TestSweeps.run(sweep, out, TestSweeps.direct(2));
        assertEquals(0, s.code(), s.err());

        Path requests = tmp.resolve("run-requests.parquet");
        Path sessions = tmp.resolve("run-sessions.parquet");
        Path decisions = tmp.resolve("run-decisions.parquet");
        assertEquals(0, Main.execute("run", "--config", base.toString(), "--routing-policy", "kv-router", "--seed", "7",
                "--requests-out", requests.toString(), "--sessions-out", sessions.toString(),
                "--trace-level", "detailed", "--trace-out", decisions.toString()));

        assertSameRows(TestSweeps.glob(out, "requests"), "'" + requests + "'", 100);
        assertSameRows(TestSweeps.glob(out, "sessions"), "'" + sessions + "'", 10);
        assertSameRows(TestSweeps.glob(out, "decisions"), "'" + decisions + "'", 100);
    }

    private static void assertSameRows(String sweepRows, String runRows, long minRows) throws Exception {
        String sweep = "(SELECT * EXCLUDE (cell_id, routing, seed) FROM " + sweepRows + ")";
        String run = "(SELECT * FROM " + runRows + ")";
        long n = TestSweeps.scalar("SELECT count(*) FROM " + run);
        assertTrue(n >= minRows, "too few rows to compare: " + n);
        assertEquals(n, TestSweeps.scalar("SELECT count(*) FROM " + sweep));
        assertEquals(0, TestSweeps.scalar("SELECT count(*) FROM (" + sweep + " EXCEPT ALL " + run + ")"));
        assertEquals(0, TestSweeps.scalar("SELECT count(*) FROM (" + run + " EXCEPT ALL " + sweep + ")"));
    }
}
