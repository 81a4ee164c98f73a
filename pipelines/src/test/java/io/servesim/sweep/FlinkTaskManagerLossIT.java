package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A TaskManager that dies in the middle of a sweep on a real Flink 1.19 session cluster costs a
 * restart, not the sweep, and not a single row: the sweep completes and writes every cell exactly
 * once.
 *
 * <p>The cluster ({@code scripts/flink-cluster}, loopback only) has two TaskManagers of 2 slots, so
 * the one left can host the restarted job at parallelism 2. Once the job runs, its cell-running
 * tasks are all RUNNING and a worker has kept a finished cell's rows in its checkpoint file
 * ({@link Checkpoint}), the TaskManager hosting the first cell-running
 * subtask is killed with SIGKILL, as a crashed machine would vanish. What must follow: Flink's
 * restart strategy runs the lost tasks' pipelined region (the cells' source, shuffle and runs) again
 * on the survivor; the job's exception history records the loss and the cell-running subtasks are in
 * a later attempt; the sweep exits 0 with every cell counted once; each dataset
 * directory holds one complete set of part files ({@code part-i-of-N}, i = 0..N-1: the failed
 * attempt's temporary files never become part files); and the datasets equal a DirectRunner run of
 * the same sweep as multisets ({@code EXCEPT ALL} both ways in DuckDB), so no row is missing or
 * doubled. Without a restart strategy the job fails as soon as the TaskManager is found lost.
 *
 * <p>Cells: 16 of 3,000 requests (~0.5 s each), so the cell-running phase lasts several seconds
 * after the first cell and the kill lands in it. The test stops the cluster, including after a
 * failure (its logs stay in {@code pipelines/target/flink-it-tm-loss/log/}), and gives up after
 * 6 minutes. Runs only under {@code mvn -Pflink-it verify}, which builds the shaded jar it stages.
 */
class FlinkTaskManagerLossIT {
    private static final Pattern PART = Pattern.compile("part-(\\d{5})-of-(\\d{5})\\.parquet");
    private static final int CELLS = 16;
    private static final int REQUESTS_PER_CELL = 3000;

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void sweepSurvivesATaskManagerKilledMidRun(@TempDir Path tmp) throws Exception {
        Path jar = Path.of(System.getProperty("servesim.flinkJar"));
        assertTrue(Files.isReadable(jar), "build the shaded jar first (mvn -Pflink-it verify): " + jar);
        Path sweep = TestSweeps.write(tmp, "tm-loss", """
                name: tm-loss
                base:
                  deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1, instances: 2}
                  engine: {max_num_seqs: 64, max_num_batched_tokens: 2048, block_size: 16}
                  workload:
                    num_requests: %d
                    input_distribution: {type: gaussian, params: {mean: 256, std_dev: 64, min: 16, max: 1024}}
                    output_distribution: {type: gaussian, params: {mean: 64, std_dev: 16, min: 1, max: 256}}
                    prefix: {group: system, length: 128}
                axes:
                  - {name: routing, path: policies.routing.name, values: [round-robin, kv-router]}
                  - {name: rate, path: workload.aggregate_rate, values: [10, 40]}
                seeds: [1, 2, 3, 4]
                """.formatted(REQUESTS_PER_CELL));
        Path direct = tmp.resolve("direct");
        Path remote = tmp.resolve("remote");
        assertEquals(0, TestSweeps.run(sweep, direct, TestSweeps.direct(null)).code());

        LoopbackFlinkCluster cluster = new LoopbackFlinkCluster(18091, 2, "flink-it-tm-loss");
        RunnerChoice flink = RunnerChoice.of(RunnerChoice.Runner.flink, 2, cluster.master(), jar);
        ExecutorService submitter = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tm-loss-sweep");
            t.setDaemon(true);
            return t;
        });
        cluster.script("start");
        try {
            Future<TestSweeps.Run> run = submitter.submit(() -> TestSweeps.run(sweep, remote, flink));
            MidRun midRun = awaitCellsRunning(cluster, run, remote);
            cluster.script("kill-taskmanager", midRun.taskManager().substring("taskmanager-".length()));

            TestSweeps.Run r = run.get(4, TimeUnit.MINUTES);
            assertEquals(0, r.code(), r.err());
            assertTrue(r.err().contains(CELLS + "/" + CELLS + " cells completed"), r.err());
            assertEquals("FINISHED", cluster.rest("/jobs/" + midRun.job()).path("state").asText());
            assertFalse(cluster.rest("/jobs/" + midRun.job() + "/exceptions").path("exceptionHistory").path("entries").isEmpty(),
                    "the job finished without failing over: the kill did not hit it");
            for (JsonNode subtask : cluster.rest("/jobs/" + midRun.job() + "/vertices/" + midRun.vertex()).path("subtasks")) {
                assertTrue(subtask.path("attempt").asInt() >= 1, "cells did not run again after the kill: " + subtask);
            }
        } finally {
            submitter.shutdownNow();
            cluster.script("stop");
        }

        for (String dataset : new String[] {"cells", "requests", "sessions", "errors"}) {
            assertOnePartFileSet(remote.resolve(dataset));
        }
        assertEquals(CELLS, TestSweeps.scalar("SELECT count(DISTINCT cell_id) FROM " + TestSweeps.glob(remote, "cells")));
        assertEquals(CELLS * REQUESTS_PER_CELL, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(remote, "requests")));
        for (String dataset : new String[] {"cells", "requests", "errors"}) {
            assertEquals(0, TestSweeps.symmetricDifference(direct, remote, dataset), dataset + ": direct vs Flink after a TaskManager loss");
        }
    }

    /** The job, its cell-running vertex, and the TaskManager running that vertex's first subtask. */
    private record MidRun(String job, String vertex, String taskManager) {
    }

    /**
     * Waits (at most 2 minutes) until the sweep's job is RUNNING with every cell-running subtask
     * RUNNING and a finished cell's rows kept in its checkpoint file (so the kill lands after work
     * was done, and that work must not be duplicated).
     */
    private static MidRun awaitCellsRunning(LoopbackFlinkCluster cluster, Future<TestSweeps.Run> run, Path out)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline) {
            if (run.isDone()) {
                fail("the sweep ended before a TaskManager could be killed mid-run: " + run.get().err());
            }
            for (JsonNode job : cluster.rest("/jobs/overview").path("jobs")) {
                if (!job.path("state").asText().equals("RUNNING")) {
                    continue;
                }
                String jid = job.path("jid").asText();
                for (JsonNode v : cluster.rest("/jobs/" + jid).path("vertices")) {
                    if (!v.path("name").asText().contains("RunCell")) {
                        continue;
                    }
                    String vid = v.path("id").asText();
                    JsonNode vertex = cluster.rest("/jobs/" + jid + "/vertices/" + vid);
                    if (allRunning(vertex) && Checkpoint.count(out.resolve(OutputDir.STAGING)) > 0) {
                        return new MidRun(jid, vid, vertex.path("subtasks").get(0).path("taskmanager-id").asText());
                    }
                }
            }
            Thread.sleep(250);
        }
        return fail("no running cell and finished cell within 2 minutes");
    }

    private static boolean allRunning(JsonNode vertex) {
        for (JsonNode subtask : vertex.path("subtasks")) {
            if (!subtask.path("status").asText().equals("RUNNING")) {
                return false;
            }
        }
        return !vertex.path("subtasks").isEmpty();
    }

    /** The directory holds exactly part-0-of-N .. part-(N-1)-of-N for a single N, nothing else. */
    private static void assertOnePartFileSet(Path dir) throws IOException {
        List<String> names;
        try (Stream<Path> files = Files.list(dir)) {
            names = files.map(f -> f.getFileName().toString()).sorted().toList();
        }
        assertFalse(names.isEmpty(), dir + " is empty");
        for (int i = 0; i < names.size(); i++) {
            Matcher m = PART.matcher(names.get(i));
            assertTrue(m.matches() && Integer.parseInt(m.group(1)) == i && Integer.parseInt(m.group(2)) == names.size(),
                    dir + ": not one complete set of part files: " + names);
        }
    }
}
