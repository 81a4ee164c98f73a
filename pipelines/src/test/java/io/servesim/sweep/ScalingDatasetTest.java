package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.cli.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The opt-in {@code scaling/} dataset, read back with DuckDB: each cell's replica timeline agrees with its cells/ row. */
class ScalingDatasetTest {
    /** The autoscaled base (1 to 4 replicas, threshold policy, 800 requests). */
    static final Path AUTOSCALED = Path.of("src", "test", "resources", "autoscaling", "autoscaled-8b.yaml").toAbsolutePath();
    private static final String HELD =
            "provisioning_replicas + loading_replicas + warming_replicas + ready_replicas + draining_replicas";

    @Test
    void timelineRowsMatchEachCellsPeakAndMeanReplicas(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "scaling", """
                name: scaling
                base: %s
                axes:
                  - name: fleet
                    values:
                      autoscaled: {autoscaling.max: 4}
                      fixed-2: {autoscaling: {}, policies.autoscale: null, deployment.instances: 2}
                seeds: [1, 2]
                outputs: {requests: false, sessions: false, scaling: true}
                """.formatted(AUTOSCALED));
        Path out = tmp.resolve("out");
        assertEquals(0, Main.execute("sweep", sweep.toString(), "--output", out.toString()));
        String cells = TestSweeps.glob(out, "cells");
        String scaling = TestSweeps.glob(out, "scaling");
        assertEquals(4, TestSweeps.scalar("SELECT count(DISTINCT cell_id) FROM " + scaling));
        assertEquals(0, TestSweeps.scalar("SELECT count(*) FROM " + scaling + " s ANTI JOIN " + cells + " c USING (cell_id)"));
        // per cell: max(held) is peak_replicas; held integrated over the rows is replica_seconds, and over the last
        // row's time (the end of the run) mean_replicas
        String perCell = "SELECT cell_id, fleet, seed, count(*) AS n, max(held) AS peak, sum(held * (coalesce(next_us, time_us)"
                + " - time_us)) / 1e6 AS seconds, max(time_us) / 1e6 AS end_s, min(time_us) AS first_us FROM (SELECT *, " + HELD
                + " AS held, lead(time_us) OVER (PARTITION BY cell_id ORDER BY time_us) AS next_us FROM " + scaling
                + ") GROUP BY ALL";
        assertEquals(0, TestSweeps.scalar("SELECT count(*) FROM (" + perCell + ") t JOIN " + cells + " c USING (cell_id)"
                + " WHERE t.fleet <> c.fleet OR t.seed <> c.seed OR t.first_us <> 0 OR t.peak <> c.peak_replicas"
                + " OR abs(t.seconds - c.replica_seconds) > 1e-6 OR abs(t.seconds / t.end_s - c.mean_replicas) > 1e-9"));
        // the autoscaled cells scaled up and back down; the fixed fleet is two rows of 2 ready replicas
        assertEquals(2, TestSweeps.scalar("SELECT count(*) FROM " + cells + " WHERE fleet = 'autoscaled' AND scale_ups > 0"
                + " AND scale_downs > 0 AND peak_replicas > 1"));
        assertTrue(TestSweeps.scalar("SELECT min(n) FROM (" + perCell + ") WHERE fleet = 'autoscaled'") > 3);
        assertEquals(4, TestSweeps.scalar("SELECT count(*) FROM " + scaling + " WHERE fleet = 'fixed-2' AND ready_replicas = 2"
                + " AND " + HELD + " = 2"));
        assertEquals(4, TestSweeps.scalar("SELECT count(*) FROM " + scaling + " WHERE fleet = 'fixed-2'"));
        assertTrue(Files.readString(out.resolve("_SWEEP.yaml")).contains("scaling: true"));
    }

    @Test
    void scalingIsOptIn(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "plain", """
                name: plain
                base: %s
                axes: [{name: max, path: autoscaling.max, values: [2]}]
                seeds: [1]
                outputs: {requests: false, sessions: false}
                """.formatted(AUTOSCALED));
        Path out = tmp.resolve("out");
        assertEquals(0, Main.execute("sweep", sweep.toString(), "--output", out.toString()));
        assertEquals(1, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "cells")));
        assertFalse(Files.exists(out.resolve("scaling")));
    }

    /**
     * Scale actions reach a sweep's {@code decisions/} (kind {@code scale}): per cell their replica steps add up to
     * its {@code scale_ups} and {@code scale_downs}, and detailed rows carry the signals the policy saw; the same
     * decisions reach {@code run --trace-out FILE.jsonl}.
     */
    @Test
    void scaleDecisionsAreTracedInSweepsAndRuns(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "traced", """
                name: traced
                base: %s
                axes: [{name: max, path: autoscaling.max, values: [3, 4]}]
                seeds: [1]
                outputs: {requests: false, sessions: false, decisions: detailed}
                """.formatted(AUTOSCALED));
        Path out = tmp.resolve("out");
        assertEquals(0, Main.execute("sweep", sweep.toString(), "--output", out.toString()));
        String cells = TestSweeps.glob(out, "cells");
        String decisions = TestSweeps.glob(out, "decisions");
        String steps = "SELECT cell_id, sum(CASE WHEN outcome = 'scale_up' THEN to_replicas - from_replicas ELSE 0 END) AS ups,"
                + " sum(CASE WHEN outcome = 'scale_down' THEN from_replicas - to_replicas ELSE 0 END) AS downs FROM " + decisions
                + " WHERE kind = 'scale' GROUP BY cell_id";
        assertEquals(2, TestSweeps.scalar("SELECT count(*) FROM (" + steps + ") d JOIN " + cells + " c USING (cell_id)"
                + " WHERE d.ups = c.scale_ups AND d.downs = c.scale_downs AND c.scale_ups > 0"));
        assertEquals(0, TestSweeps.scalar("SELECT count(*) FROM " + decisions + " WHERE kind = 'scale' AND (request_id IS NOT NULL"
                + " OR instance IS NOT NULL OR policy <> 'threshold' OR reason = ''"
                + " OR element_at(signals, 'current_replicas')[1] <> from_replicas)"));
        // Ids and counts that do not apply to a kind are null, not -1: no negative value anywhere, and the routing rows
        // (one per request) carry a request and an instance but no replica counts.
        assertEquals(0, TestSweeps.scalar("SELECT count(*) FROM " + decisions + " WHERE request_id < 0 OR instance < 0"
                + " OR from_replicas < 0 OR to_replicas < 0"));
        assertTrue(TestSweeps.scalar("SELECT count(*) FROM " + decisions + " WHERE kind = 'routing' AND request_id IS NOT NULL"
                + " AND instance IS NOT NULL AND from_replicas IS NULL AND to_replicas IS NULL") > 0);
        Path jsonl = tmp.resolve("trace.jsonl");
        assertEquals(0, Main.execute("run", "-c", AUTOSCALED.toString(), "--trace-level", "decisions", "--trace-out",
                jsonl.toString()));
        assertTrue(Files.readAllLines(jsonl).stream().anyMatch(l -> l.contains("\"kind\":\"scale\"")
                && l.contains("\"from_replicas\":1") && l.contains("\"to_replicas\":2")
                && l.contains("\"request_id\":null")), "a scale-up from 1 to 2 replicas, about no request");
    }
}
