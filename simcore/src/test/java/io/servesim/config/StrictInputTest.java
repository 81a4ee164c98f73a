package io.servesim.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.run.SimConfig;
import io.servesim.run.SimConfigLoader;
import io.servesim.workload.WorkloadBinder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Input that used to be accepted silently: duplicate keys, integers that wrap or are fractional. */
class StrictInputTest {
    private static List<String> problems(Runnable r) {
        ConfigException e = assertThrows(ConfigException.class, r::run);
        return e.problems().stream().map(ConfigException.Problem::toString).toList();
    }

    @Test
    void duplicateKeyInAConfigFileNamesTheKeyPathFileAndLine(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("c.yaml");
        Files.writeString(f, """
                seed: 1
                engine:
                  max_num_seqs: 64
                  max_num_seqs: 128
                """);
        assertEquals(List.of("engine.max_num_seqs: duplicate key (" + f + " line 4); each key may appear once in a mapping"),
                problems(() -> StrictJson.readMapping(f)));
    }

    @Test
    void duplicateKeyInsideAListElementNamesItsIndex(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("c.yaml");
        Files.writeString(f, "workload:\n  clients:\n    - {id: a}\n    - {id: b, id: c}\n");
        assertEquals(List.of("workload.clients[1].id: duplicate key (" + f + " line 4); each key may appear once in a mapping"),
                problems(() -> StrictJson.readMapping(f)));
    }

    @Test
    void duplicateKeyInAStandaloneWorkloadFileIsReportedUnderWorkload(@TempDir Path dir) throws Exception {
        Path w = dir.resolve("w.yaml");
        Files.writeString(w, "aggregate_rate: 1\naggregate_rate: 2\n");
        ConfigNode root = ConfigNode.root(StrictJson.yaml().readTree("workload: w.yaml"));
        WorkloadBinder.bindSection(root, dir, 0, null);
        assertEquals(List.of("workload.aggregate_rate: duplicate key (" + w + " line 2); each key may appear once in a mapping"),
                problems(root::throwIfProblems));
    }

    @Test
    void duplicateKeyInAnOverrideValue() {
        ObjectNode tree = StrictJson.yaml().createObjectNode();
        assertEquals(List.of("policies.priority.name: duplicate key (--set policies.priority=... line 1); "
                        + "each key may appear once in a mapping"),
                problems(() -> Overrides.apply(tree, "policies.priority={name: a, name: b}")));
    }

    @Test
    void integersThatOverflowAreRejectedNotWrapped() {
        assertEquals(List.of("seed: must be an integer in [-9223372036854775808, 9223372036854775807], got 18446744073709551616"),
                problems(() -> bind("seed: 18446744073709551616")));
        assertEquals(List.of("engine.total_kv_blocks: must be in [1, 268435453] blocks, got 4294967296 (at most the largest cache the simulator indexes per instance)"),
                problems(() -> bind("engine: {total_kv_blocks: 4294967296}")));
        assertEquals(List.of("horizon_us: must be in [0us, 1000000000s], got 1.0E20us (0 runs until every"
                        + " request has left; simulated time is microseconds in a long)"),
                problems(() -> bind("horizon_us: 1.0e20")));
    }

    @Test
    void fractionalValuesWhereAnIntegerIsRequiredNameThePath() {
        assertEquals(List.of("engine.max_num_seqs: must be an integer, got 2.5"),
                problems(() -> bind("engine: {max_num_seqs: 2.5}")));
        assertEquals(64, bind("engine: {max_num_seqs: 64.0}").engine().maxNumSeqs());
    }

    private static SimConfig bind(String yaml) {
        try {
            return SimConfigLoader.bind(StrictJson.yaml().readTree(
                    "deployment: {coefficients: {alpha: [0, 0, 0], beta: [1, 1, 1]}}\n" + yaml), Path.of("."));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
