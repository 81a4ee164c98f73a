package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep submitted to a real Flink 1.19 session cluster (two JVMs on loopback, started with
 * {@code scripts/flink-cluster} on ports of its own) writes exactly the rows the DirectRunner
 * writes. Runs only under {@code mvn -Pflink-it verify}, which builds the shaded jar it stages.
 */
class FlinkClusterIT {
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
    private static final Map<String, String> PORTS = Map.of("FLINK_REST_PORT", "18081", "FLINK_RPC_PORT", "18123",
            "FLINK_BLOB_PORT", "18124", "FLINK_TM_RPC_PORT", "18122",
            "FLINK_RUN_DIR", ROOT.resolve("pipelines/target/flink-it-cluster").toString());

    private static String cluster(String action) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(ROOT.resolve("scripts/flink-cluster").toString(), action)
                .directory(ROOT.toFile()).redirectErrorStream(true);
        pb.environment().putAll(PORTS);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "flink-cluster " + action + " timed out");
        assertEquals(0, p.exitValue(), "flink-cluster " + action + ": " + out);
        return out;
    }

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
        cluster("start");
        try {
            TestSweeps.Run r = TestSweeps.run(sweep, remote,
                    RunnerChoice.of(RunnerChoice.Runner.flink, 2, "127.0.0.1:" + PORTS.get("FLINK_REST_PORT"), jar));
            assertEquals(0, r.code(), r.err());
            assertTrue(r.err().contains("progress is shown in its web UI"), r.err());
        } finally {
            cluster("stop");
        }
        // 2 routings x 2 rates x 2 seeds = 8 cells of 120 requests
        assertEquals(960, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(remote, "requests")));
        for (String dataset : new String[] {"requests", "cells", "errors"}) {
            assertEquals(0, TestSweeps.symmetricDifference(direct, remote, dataset), dataset + ": direct vs Flink cluster");
        }
    }
}
