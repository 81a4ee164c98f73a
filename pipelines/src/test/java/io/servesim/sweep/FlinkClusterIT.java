package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep submitted to a real Flink 1.19 session cluster (two JVMs on loopback, started with
 * {@code scripts/flink-cluster} on ports of its own) writes exactly the rows the DirectRunner
 * writes. Runs only under {@code mvn -Pflink-it verify}, which builds the shaded jar it stages.
 */
class FlinkClusterIT {
    @Test
    void realClusterWritesTheDirectRunnersRows(@TempDir Path tmp) throws Exception {
        Path jar = Path.of(System.getProperty("servesim.flinkJar"));
        assertTrue(Files.isReadable(jar), "build the shaded jar first (mvn -Pflink-it verify): " + jar);
        Path sweep = TestSweeps.write(tmp, "cluster", TestSweeps.BASE + """
                name: cluster
                axes:
                  - {name: routing, path: policies.routing.name, values: [round-robin, kv-router]}
                  - {name: rate, path: workload.aggregate_rate, values: [10, 40]}
                seeds: [1, 2]
                """);
        Path direct = tmp.resolve("direct");
        Path remote = tmp.resolve("remote");
        assertEquals(0, TestSweeps.run(sweep, direct, TestSweeps.direct(null)).code());
        LoopbackFlinkCluster cluster = new LoopbackFlinkCluster(18081, 1, "flink-it-cluster");
        cluster.script("start");
        try {
            TestSweeps.Run r = TestSweeps.run(sweep, remote, RunnerChoice.of(RunnerChoice.Runner.flink, 2, cluster.master(), jar));
            assertEquals(0, r.code(), r.err());
            assertTrue(r.err().contains("progress is shown in its web UI"), r.err());
        } finally {
            cluster.script("stop");
        }
        // 2 routings x 2 rates x 2 seeds = 8 cells of 120 requests
        assertEquals(960, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(remote, "requests")));
        for (String dataset : new String[] {"requests", "cells", "errors"}) {
            assertEquals(0, TestSweeps.symmetricDifference(direct, remote, dataset), dataset + ": direct vs Flink cluster");
        }
    }
}
