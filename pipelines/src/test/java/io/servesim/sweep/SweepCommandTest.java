package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.servesim.cli.Main;
import io.servesim.exit.ExitCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code servesim sweep} end to end: Parquet read back through DuckDB, invalid cells, cells that throw. */
class SweepCommandTest {
    private static final Path MOONCAKE = Path.of("..", "simcore", "src", "test", "resources", "traces",
            "mooncake_conversation_head500.jsonl").toAbsolutePath().normalize();

    @Test
    void cliWritesDatasetsAQueryCanGroupByAxes(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "small", TestSweeps.BASE + """
                name: small
                axes:
                  - {name: routing, path: policies.routing.name, values: [round-robin, least-loaded]}
                  - {name: rate, path: workload.aggregate_rate, values: [10, 40]}
                seeds: [1]
                outputs: {requests: true, decisions: decisions}
                """);
        Path out = tmp.resolve("out");
        assertEquals(0, Main.execute("sweep", sweep.toString(), "--output", out.toString()));
        // 2 routings x 2 rates x 1 seed = 4 cells of 120 requests
        assertEquals(4, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "cells")));
        assertEquals(480, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "requests")));
        // one admission, one priority and one routing decision per request (always-admit, no preemption)
        assertEquals(3 * 480, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "decisions")));
        assertEquals(480, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "decisions") + " WHERE kind = 'routing'"));
        assertEquals(0, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "errors")));
        assertEquals(2, TestSweeps.scalar("SELECT count(*) FROM (SELECT routing, avg(ttft_p99_ms) FROM "
                + TestSweeps.glob(out, "cells") + " GROUP BY routing)"));
        // requests carry the cell id and axis labels, and agree with their cell's counts
        assertEquals(0, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "cells") + " c JOIN (SELECT cell_id,"
                + " routing, rate, count(*) FILTER (WHERE status = 'completed') AS done FROM " + TestSweeps.glob(out, "requests")
                + " GROUP BY ALL) r USING (cell_id) WHERE r.routing <> c.routing OR r.rate <> c.rate OR r.done <> c.completed"));
        assertEquals(4, TestSweeps.scalar("SELECT count(DISTINCT cell_id) FROM " + TestSweeps.glob(out, "requests")));
        JsonNode summary = new ObjectMapper().readTree(out.resolve("_SUMMARY.json").toFile());
        assertEquals(4, summary.get("cells_completed").asInt());
        assertEquals(480, summary.at("/rows/requests").asInt());
        // the DirectRunner's default: one cell thread per core
        assertEquals(Runtime.getRuntime().availableProcessors(), summary.get("parallelism").asInt());
        assertTrue(Files.readString(out.resolve("_SWEEP.yaml")).contains("cell_id"));
    }

    @Test
    void agenticSweepWritesSessionsThatJoinTheirRequestsAndCells(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.agenticSweep(tmp, 20_000_000);
        Path out = tmp.resolve("out");
        assertEquals(0, Main.execute("sweep", sweep.toString(), "--output", out.toString()));
        String sessions = TestSweeps.glob(out, "sessions");
        String requests = TestSweeps.glob(out, "requests");
        assertTrue(TestSweeps.scalar("SELECT count(*) FROM " + sessions + " WHERE status = 'completed'") > 10);
        assertEquals(2, TestSweeps.scalar("SELECT count(DISTINCT routing) FROM " + sessions));
        // a completed session's llm_calls equals its completed requests in the same cell
        assertEquals(0, TestSweeps.scalar("SELECT count(*) FROM " + sessions + " s JOIN (SELECT cell_id, session_id,"
                + " count(*) FILTER (WHERE status = 'completed') AS n FROM " + requests + " GROUP BY ALL) q"
                + " USING (cell_id, session_id) WHERE s.status = 'completed' AND s.llm_calls <> q.n"));
        assertEquals(0, TestSweeps.scalar("SELECT count(*) FROM " + sessions + " s ANTI JOIN "
                + TestSweeps.glob(out, "cells") + " c USING (cell_id)"), "every session row belongs to a cell");
    }

    @Test
    void resultTableAndPathsOnStdout(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "table", TestSweeps.BASE + """
                name: table
                axes: [{name: rate, path: workload.aggregate_rate, values: [10, 40]}]
                seeds: [1, 2]
                outputs: {requests: false}
                """);
        TestSweeps.Run r = TestSweeps.run(sweep, tmp.resolve("out"), TestSweeps.direct(null));
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).matches("rate\\s+seeds\\s+ttft_p99_ms\\s+e2e_p99_ms\\s+throughput_rps\\s+output_tokens_per_s\\s+slo_attainment"),
                lines.get(0));
        assertTrue(lines.get(1).matches("10\\s+2\\s+.*"), lines.get(1));
        assertTrue(lines.get(2).matches("40\\s+2\\s+.*"), lines.get(2));
        assertTrue(r.out().contains("cells     " + tmp.resolve("out").resolve("cells") + " (4 rows)"), r.out());
        assertFalse(Files.exists(tmp.resolve("out").resolve("requests")), "requests: false writes no requests/");
        assertTrue(r.err().contains("4/4 cells completed"), r.err());
    }

    @Test
    void invalidCellsAreAllListedBeforeAnythingRuns(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "bad", TestSweeps.BASE + """
                name: bad
                axes:
                  - {name: routing, path: policies.routing.name, values: [round-robin, fastest, least-loaded]}
                  - {name: block, path: engine.block_size, values: [16, 7]}
                seeds: [1, 2]
                """);
        TestSweeps.Run r = TestSweeps.run(sweep, tmp.resolve("out"), TestSweeps.direct(null));
        assertEquals(ExitCode.CONFIG_ERROR, r.code());
        // 3 routings x 2 block sizes x 2 seeds = 12 cells; bad: 'fastest' (4 cells) + block 7 with valid routings (4)
        assertTrue(r.err().contains("8 of 12 cells are invalid"), r.err());
        assertTrue(r.err().contains("routing=fastest, block=16 (seeds 1, 2)\n      policies.routing.name: unknown"), r.err());
        assertTrue(r.err().contains("routing=least-loaded, block=7 (seeds 1, 2)\n      engine.block_size: must be one of"), r.err());
        assertTrue(r.err().contains("round-robin, least-loaded, weighted-scoring"), "lists the valid routings: " + r.err());
        assertFalse(Files.exists(tmp.resolve("out")), "nothing ran");
    }

    @Test
    void aCellThatThrowsBecomesAnErrorsRowAndTheOthersComplete(@TempDir Path tmp) throws Exception {
        // the bad line is past the first 100 that sweep validation reads (TraceHead), so it fails at run time
        List<String> lines = Files.readAllLines(MOONCAKE).subList(0, 120);
        Files.write(tmp.resolve("good.jsonl"), lines);
        List<String> bad = new java.util.ArrayList<>(lines.subList(0, 110));
        bad.add("{\"timestamp\": 99999999, \"input_length\": \"many\"}");
        Files.write(tmp.resolve("bad.jsonl"), bad);
        Path sweep = TestSweeps.write(tmp, "throws", """
                name: throws
                base:
                  deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1, instances: 2}
                  engine: {block_size: 16}
                  workload: {trace: {format: mooncake, path: good.jsonl}}
                axes:
                  - {name: trace, path: workload.trace.path, values: [good.jsonl, bad.jsonl]}
                  - {name: routing, path: policies.routing, values: [round-robin, least-loaded]}
                seeds: [1]
                """);
        Path out = tmp.resolve("out");
        TestSweeps.Run r = TestSweeps.run(sweep, out, TestSweeps.direct(null));
        assertEquals(ExitCode.RUNTIME_ERROR, r.code(), r.err());
        assertTrue(r.err().contains("2 of 4 cells failed at run time"), r.err());
        assertEquals(2, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "errors")
                + " WHERE trace = 'bad.jsonl' AND exception_class = 'io.servesim.workload.TraceFormatException'"
                + " AND message LIKE '%bad.jsonl:111:%' AND cell_id IS NOT NULL"));
        assertEquals(2, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "cells") + " WHERE trace = 'good.jsonl'"));
        assertEquals(240, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "requests")));
        assertEquals(0, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "requests") + " WHERE trace = 'bad.jsonl'"),
                "a failed cell leaves no partial rows");
    }
}
