package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * INV-6 at the sweep level: the same sweep gives identical rows on repeated runs, at another
 * parallelism and on another runner (embedded Flink). Rows are compared as multisets through DuckDB
 * ({@code EXCEPT ALL} both ways), so file layout and row order may differ.
 */
class DeterminismTest {
    @Test
    void sameRowsAcrossRunsParallelismAndRunners(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "det", TestSweeps.BASE + """
                name: det
                axes:
                  - {name: routing, path: policies.routing.name, values: [weighted-scoring, kv-router]}
                  - {name: rate, path: workload.aggregate_rate, values: [10, 40]}
                seeds: [3]
                outputs: {decisions: detailed, counterfactual_k: 2}
                """);
        Path direct = tmp.resolve("direct");
        Path directP1 = tmp.resolve("direct-p1");
        Path flink = tmp.resolve("flink-p2");
        assertEquals(0, TestSweeps.run(sweep, direct, TestSweeps.direct(null)).code());
        assertEquals(0, TestSweeps.run(sweep, directP1, TestSweeps.direct(1)).code());
        TestSweeps.Run f = TestSweeps.run(sweep, flink, RunnerChoice.of(RunnerChoice.Runner.flink, 2, "[local]", null));
        assertEquals(0, f.code(), f.err());
        for (String dataset : new String[] {"requests", "cells", "errors"}) {
            assertEquals(0, TestSweeps.symmetricDifference(direct, directP1, dataset), dataset + ": direct vs direct p=1");
            assertEquals(0, TestSweeps.symmetricDifference(direct, flink, dataset), dataset + ": direct vs flink p=2");
        }
        // decisions hold MAP columns, which EXCEPT cannot compare: compare them as JSON text
        String cols = "cell_id, time_us, request_id, kind, outcome, instance, value, score_regret,"
                + " to_json(candidates)::VARCHAR, to_json(instances)::VARCHAR, to_json(loads)::VARCHAR, to_json(scores)::VARCHAR,"
                + " to_json(signals)::VARCHAR, from_replicas, to_replicas";
        String q = "SELECT count(*) FROM (SELECT " + cols + " FROM %s EXCEPT ALL SELECT " + cols + " FROM %s)";
        assertEquals(0, TestSweeps.scalar(String.format(q, TestSweeps.glob(direct, "decisions"), TestSweeps.glob(flink, "decisions"))));
        assertEquals(0, TestSweeps.scalar(String.format(q, TestSweeps.glob(flink, "decisions"), TestSweeps.glob(direct, "decisions"))));
        assertEquals(480, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(flink, "requests")));
        // both routers score (kv-router: minus Dynamo's cost), so every routing decision has its 2 best candidates
        assertEquals(480, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(flink, "decisions")
                + " WHERE kind = 'routing' AND len(candidates) = 2"));
    }

    @Test
    void agenticSessionsAreTheSameOnEveryRunner(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.agenticSweep(tmp, 10_000_000);
        Path direct = tmp.resolve("direct");
        Path flink = tmp.resolve("flink-p2");
        assertEquals(0, TestSweeps.run(sweep, direct, TestSweeps.direct(null)).code());
        TestSweeps.Run f = TestSweeps.run(sweep, flink, RunnerChoice.of(RunnerChoice.Runner.flink, 2, "[local]", null));
        assertEquals(0, f.code(), f.err());
        for (String dataset : new String[] {"sessions", "requests", "cells"}) {
            assertEquals(0, TestSweeps.symmetricDifference(direct, flink, dataset), dataset + ": direct vs flink p=2");
        }
        assertTrue(TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(flink, "sessions")) > 10);
    }
}
