package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Flink session cluster on 127.0.0.1 driven through {@code scripts/flink-cluster} (the script users
 * run), on ports and a run directory of its own so that tests of several worktrees or classes never
 * share a cluster, plus reads of its REST API.
 */
final class LoopbackFlinkCluster {
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, String> env = new HashMap<>();
    private final int restPort;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    /**
     * @param restPort     REST port; the JobManager RPC and BLOB ports are the next two, the TaskManagers'
     *                     RPC ports the ones after them
     * @param taskManagers TaskManager JVMs (2 slots each)
     * @param runDir       directory name under {@code pipelines/target/} for conf, logs and PID files
     */
    LoopbackFlinkCluster(int restPort, int taskManagers, String runDir) {
        this.restPort = restPort;
        env.put("FLINK_REST_PORT", Integer.toString(restPort));
        env.put("FLINK_RPC_PORT", Integer.toString(restPort + 1));
        env.put("FLINK_BLOB_PORT", Integer.toString(restPort + 2));
        env.put("FLINK_TM_RPC_PORT", Integer.toString(restPort + 3));
        env.put("FLINK_TASKMANAGERS", Integer.toString(taskManagers));
        env.put("FLINK_RUN_DIR", ROOT.resolve("pipelines/target").resolve(runDir).toString());
    }

    /** {@code host:port} to pass as the Flink master. */
    String master() {
        return "127.0.0.1:" + restPort;
    }

    /** Runs {@code scripts/flink-cluster args...}; asserts it exits 0 within 3 minutes and returns its output. */
    String script(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(ROOT.resolve("scripts/flink-cluster").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(ROOT.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "flink-cluster " + String.join(" ", args) + " timed out");
        assertEquals(0, p.exitValue(), "flink-cluster " + String.join(" ", args) + ": " + out);
        return out;
    }

    /** GET of a REST path (e.g. {@code /jobs/overview}), parsed; fails on any status but 200. */
    JsonNode rest(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + restPort + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), "GET " + path + ": " + r.body());
        return JSON.readTree(r.body());
    }
}
