package io.servesim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigNode;
import io.servesim.config.StrictJson;
import io.servesim.engine.Request;
import io.servesim.run.LinearLatency;
import io.servesim.run.Runs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every example in sweeps/workloads validates and runs end to end; every scenario has an example. */
class ExampleWorkloadsTest {
    static final Path EXAMPLES = Path.of("..", "sweeps", "workloads");

    static Stream<Path> examples() throws IOException {
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            return files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("examples")
    void validatesAndRunsEndToEnd(Path example) {
        ObjectNode tree = StrictJson.readMapping(example);
        if (tree.has("trace")) {
            Path trace = EXAMPLES.resolve(tree.at("/trace/path").asText());
            assertTrue(Files.isReadable(trace), "the trace an example replays ships in the repository: " + trace);
        }
        // As a run config would reference it: workload: <path>, relative to the config's directory.
        ConfigNode root = ConfigNode.root(Yaml.tree("workload: workloads/" + example.getFileName()));
        WorkloadSpec spec = WorkloadBinder.bindSection(root, EXAMPLES.getParent(), 0, null);
        root.throwIfProblems();
        assertNotNull(spec);
        assertEquals(List.of(), spec.warnings(), example.toString());
        if (spec instanceof TraceSpec t) {
            spec = new TraceSpec(t.format(), t.path(), t.mode(), t.speedupRatio(), t.maxInFlight(), t.skipBadLines(), 300);
        } else {
            // Run a 300-request cut of it (the examples are sized for real studies).
            tree.put("num_requests", 300);
            tree.remove("horizon_us");
            spec = Yaml.workload(tree.toString(), EXAMPLES, 0);
        }
        Runs.Result res = Runs.run(Runs.engine(400_000), new LinearLatency(200, 1, 20, 3000, 20, 150), "fcfs", "constant",
                spec.open(42, 0), 0);
        var s = res.summary();
        assertEquals(300, s.count("injected"), example.toString());
        assertEquals(s.count("injected"), s.count("completed") + s.count("dropped"));
        assertEquals(0, s.count("unfinished"));
    }

    @Test
    void everyScenarioHasAnExample() throws IOException {
        for (String name : Scenarios.names()) {
            Path p = EXAMPLES.resolve(name + ".yaml");
            assertTrue(Files.readString(p).contains("scenario: " + name), p.toString());
        }
    }

    @Test
    void unfairTenantsSplitNinetyTen() {
        // 5,000 requests, 90% batch: 4,500 expected; batch gaps have CV 2, widening the count's spread
        // to about 2 x sqrt(5000 x 0.09) = 42.
        List<Request> rs = Drain.all(Yaml.workload("scenario: unfair-tenants").open(1, 0));
        assertEquals(5000, rs.size());
        long batch = rs.stream().filter(r -> r.tags().tenantId().equals("tenant-batch")).count();
        assertEquals(4500, batch, 200);
        assertTrue(rs.stream().filter(r -> r.tags().sloClass().equals("realtime")).allMatch(r -> r.priority() == 1));
    }

    @Test
    void prefixHeavySharesPrefixesInEightyPercent() {
        // 80% of requests start with tools-a (2048 tokens) or tools-b (1024): 4,000 of 5,000 (sd 28).
        List<Request> rs = Drain.all(Yaml.workload("scenario: prefix-heavy").open(1, 0));
        long a = new PrefixSpec("tools-a", 2048).contentId();
        long b = new PrefixSpec("tools-b", 1024).contentId();
        long shared = rs.stream().filter(r -> r.input().segmentId(0) == a || r.input().segmentId(0) == b).count();
        assertEquals(4000, shared, 150);
    }
}
