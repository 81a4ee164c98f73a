package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.exit.ExitCode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A population of policy candidates evaluated as one sweep: an axis over PolicyBundle files. */
class CandidateSweepTest {
    @Test
    void eachCandidateFileIsACell(@TempDir Path tmp) throws Exception {
        Files.createDirectories(tmp.resolve("cands"));
        Files.writeString(tmp.resolve("cands/a.yaml"), "routing: {name: weighted-scoring, params: {load: 2}}\n");
        Files.writeString(tmp.resolve("cands/b.yaml"), "routing: least-loaded\nscheduler: priority-fcfs\n");
        Path sweep = TestSweeps.write(tmp, "population", TestSweeps.BASE + """
                name: population
                axes: [{name: candidate, policy_configs: [cands/a.yaml, cands/b.yaml]}]
                seeds: [1, 2]
                outputs: {requests: false, decisions: decisions}
                """);
        TestSweeps.Run r = TestSweeps.run(sweep, tmp.resolve("out"), TestSweeps.direct(null));
        assertEquals(0, r.code(), r.err());
        assertEquals(4, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(tmp.resolve("out"), "cells")));
        // the candidate column labels each cell; each candidate's routing policy made its decisions
        assertEquals(240, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(tmp.resolve("out"), "decisions")
                + " WHERE candidate = 'cands/a.yaml' AND kind = 'routing' AND policy = 'weighted-scoring'"));
        assertEquals(240, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(tmp.resolve("out"), "decisions")
                + " WHERE candidate = 'cands/b.yaml' AND kind = 'routing' AND policy = 'least-loaded'"));
    }

    @Test
    void badCandidatesAreListedWithTheirPaths(@TempDir Path tmp) throws Exception {
        Files.writeString(tmp.resolve("ok.yaml"), "routing: least-loaded\n");
        Files.writeString(tmp.resolve("kind.yaml"), "autoscaler: {name: hpa}\n");
        Files.writeString(tmp.resolve("range.yaml"), "routing: {name: weighted-scoring, params: {load: -1}}\n");
        Path sweep = TestSweeps.write(tmp, "bad-population", TestSweeps.BASE + """
                name: bad-population
                axes: [{name: candidate, policy_configs: [ok.yaml, kind.yaml, range.yaml]}]
                seeds: [1]
                """);
        TestSweeps.Run r = TestSweeps.run(sweep, tmp.resolve("out"), TestSweeps.direct(null));
        assertEquals(ExitCode.CONFIG_ERROR, r.code());
        assertTrue(r.err().contains("axes[0].policy_configs[1]") && r.err().contains("unknown policy kind"), r.err());
    }
}
