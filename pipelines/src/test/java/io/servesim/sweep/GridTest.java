package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Grid expansion: cross product order, zip groups, named alternatives, replicate seeds, stable cell ids. */
class GridTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static SweepSpec spec(String yaml) throws Exception {
        return SweepFile.bind((ObjectNode) YAML.readTree(TestSweeps.BASE + yaml), Path.of("."));
    }

    private static List<String> labels(Grid.Expansion g) {
        return g.cells().stream().map(c -> c.describeAxes() + " seed=" + c.seed()).toList();
    }

    @Test
    void crossProductFirstAxisOutermostSeedsInnermost() throws Exception {
        Grid.Expansion g = Grid.expand(spec("""
                name: t
                axes:
                  - {name: routing, path: policies.routing.name, values: [round-robin, least-loaded]}
                  - {name: rate, path: workload.aggregate_rate, values: [10, 20, 30]}
                seeds: [1, 2]
                """));
        // 2 routings x 3 rates x 2 seeds = 12 cells
        assertEquals(12, g.cells().size());
        assertEquals("routing=round-robin, rate=10 seed=1", labels(g).get(0));
        assertEquals("routing=round-robin, rate=10 seed=2", labels(g).get(1));
        assertEquals("routing=round-robin, rate=20 seed=1", labels(g).get(2));
        assertEquals("routing=least-loaded, rate=30 seed=2", labels(g).get(11));
        for (int i = 0; i < 12; i++) {
            assertEquals(i, g.cells().get(i).index());
        }
        JsonNode config = new ObjectMapper().readTree(g.cells().get(11).configJson());
        assertEquals("least-loaded", config.at("/policies/routing/name").asText());
        assertEquals(30, config.at("/workload/aggregate_rate").asInt());
        assertEquals(2, config.get("seed").asLong());
    }

    @Test
    void zippedAxesMoveTogether() throws Exception {
        Grid.Expansion g = Grid.expand(spec("""
                name: t
                axes:
                  - {name: rate, path: workload.aggregate_rate, values: [10, 20]}
                  - {name: routing, path: policies.routing.name, values: [round-robin, least-loaded, kv-router]}
                  - {name: seqs, path: engine.max_num_seqs, values: [8, 16]}
                zip: [[rate, seqs]]
                seeds: [7]
                """));
        // (rate, seqs) in {(10, 8), (20, 16)} x 3 routings = 6 cells; the zip group sits where 'rate' is declared
        assertEquals(List.of(
                "rate=10, routing=round-robin, seqs=8 seed=7", "rate=10, routing=least-loaded, seqs=8 seed=7",
                "rate=10, routing=kv-router, seqs=8 seed=7", "rate=20, routing=round-robin, seqs=16 seed=7",
                "rate=20, routing=least-loaded, seqs=16 seed=7", "rate=20, routing=kv-router, seqs=16 seed=7"), labels(g));
    }

    @Test
    void namedAlternativesSetSeveralPaths() throws Exception {
        Grid.Expansion g = Grid.expand(spec("""
                name: t
                axes:
                  - name: hardware
                    values:
                      h100-tp1: {deployment.hardware: H100, deployment.tp: 1}
                      a100-tp2: {deployment.hardware: A100-80GB, deployment.tp: 2}
                seeds: [1]
                """));
        assertEquals(List.of("hardware=h100-tp1 seed=1", "hardware=a100-tp2 seed=1"), labels(g));
        JsonNode a100 = new ObjectMapper().readTree(g.cells().get(1).configJson());
        assertEquals("A100-80GB", a100.at("/deployment/hardware").asText());
        assertEquals(2, a100.at("/deployment/tp").asInt());
        assertEquals(2, a100.at("/deployment/instances").asInt(), "the rest of the base is kept");
    }

    @Test
    void replicatesDeriveSeedsFromTheSweepSeed() throws Exception {
        SweepSpec three = spec("name: t\naxes: [{name: rate, path: workload.aggregate_rate, values: [10]}]\nreplicates: 3\nseed: 5\n");
        SweepSpec two = spec("name: t\naxes: [{name: rate, path: workload.aggregate_rate, values: [10]}]\nreplicates: 2\nseed: 5\n");
        assertEquals(List.of(SweepFile.replicateSeed(5, 0), SweepFile.replicateSeed(5, 1), SweepFile.replicateSeed(5, 2)),
                three.seeds());
        assertEquals(three.seeds().subList(0, 2), two.seeds(), "adding replicates keeps the earlier ones");
        assertTrue(three.seeds().stream().allMatch(s -> s >= 0));
        assertEquals(3, three.seeds().stream().distinct().count());
        SweepSpec other = spec("name: t\naxes: [{name: rate, path: workload.aggregate_rate, values: [10]}]\nreplicates: 1\nseed: 6\n");
        assertNotEquals(three.seeds().get(0), other.seeds().get(0));
    }

    @Test
    void cellIdIsAStableHashOfTheResolvedConfigAndSeed() throws Exception {
        String sweep = "name: t\naxes: [{name: rate, path: workload.aggregate_rate, values: [10, 20]}]\nseeds: [1, 2]\n";
        List<Cell> a = Grid.expand(spec(sweep)).cells();
        List<Cell> b = Grid.expand(spec(sweep)).cells();
        assertEquals(a.stream().map(Cell::cellId).toList(), b.stream().map(Cell::cellId).toList());
        assertEquals(4, a.stream().map(Cell::cellId).distinct().count());
        // the same config reached another way (axis renamed, value given in the base instead) has the same id
        List<Cell> c = Grid.expand(spec("name: u\naxes: [{name: load, path: workload.aggregate_rate, values: [20]}]\nseeds: [2]\n")).cells();
        assertEquals(a.get(3).cellId(), c.get(0).cellId());
        assertTrue(a.get(0).cellId().matches("[0-9a-f]{16}"));
    }

    private static List<String> ids(Path dir) throws Exception {
        SweepSpec spec = SweepFile.bind((ObjectNode) YAML.readTree("""
                name: t
                base:
                  deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1}
                  policies: {routing: {name: code, params: {source: code/Route.java}}}
                  workload: wl.yaml
                axes: [{name: mns, path: engine.max_num_seqs, values: [8, 16]}]
                seeds: [1]
                """), dir);
        return Grid.expand(spec).cells().stream().map(Cell::cellId).toList();
    }

    /**
     * A cell id covers what the files its config names hold: the workload file, the trace that file names (relative
     * to it) and a policy's source. Editing any of them gives new ids, so a resumed sweep runs its cells again;
     * the same inputs in another folder give the same ids.
     */
    @Test
    void cellIdsChangeWithTheInputsTheConfigReadsNotWithWhereTheyAre(@TempDir Path tmp) throws Exception {
        Path a = Files.createDirectories(tmp.resolve("a"));
        Files.createDirectories(a.resolve("code"));
        Files.createDirectories(a.resolve("traces"));
        Files.writeString(a.resolve("wl.yaml"), "trace: {format: csv, path: traces/t.csv}\n");
        Files.writeString(a.resolve("traces/t.csv"), "arrival_us,input_tokens,output_tokens\n0,10,5\n");
        Files.writeString(a.resolve("code/Route.java"), "class Route {}\n");
        List<String> first = ids(a);
        assertEquals(2, first.stream().distinct().count());
        assertEquals(first, ids(a), "same inputs, same ids");

        Path b = tmp.resolve("b");
        copyTree(a, b);
        assertEquals(first, ids(b), "moved: same ids");

        Files.writeString(b.resolve("traces/t.csv"), "arrival_us,input_tokens,output_tokens\n0,11,5\n");
        List<String> traceEdited = ids(b);
        assertNotEquals(first.get(0), traceEdited.get(0), "the trace the workload file names changed");

        Files.writeString(b.resolve("code/Route.java"), "class Route { }\n");
        List<String> codeEdited = ids(b);
        assertNotEquals(traceEdited.get(0), codeEdited.get(0), "the policy source changed");

        Files.writeString(b.resolve("wl.yaml"), "trace: {format: csv, path: traces/t.csv}  # edited\n");
        assertNotEquals(codeEdited.get(0), ids(b).get(0), "the workload file changed");
    }

    private static void copyTree(Path from, Path to) throws Exception {
        try (var files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
    }
}
