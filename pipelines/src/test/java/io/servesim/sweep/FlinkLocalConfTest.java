package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded Flink cluster's generated configuration, and a run at the widest parallelism it was sized for. */
class FlinkLocalConfTest {
    @Test
    void sizesGrowWithParallelism() {
        // managed = 8 p + 8 MB: 24 at p=2 (the two sorters of 2 slots), 136 at p=16 (Flink's local default is 128)
        assertEquals(24, FlinkLocalConf.managedMb(2));
        assertEquals(136, FlinkLocalConf.managedMb(16));
        // network = max(16, p^2 / 4) MB: 16 up to p=8, 64 at p=16 (= Flink's local default), 256 at p=32
        assertEquals(16, FlinkLocalConf.networkMb(2));
        assertEquals(16, FlinkLocalConf.networkMb(8));
        assertEquals(64, FlinkLocalConf.networkMb(16));
        assertEquals(256, FlinkLocalConf.networkMb(32));
    }

    @Test
    void writesConfigYamlUnlessTheUserHasAFlinkConfDir() throws Exception {
        Path dir = FlinkLocalConf.materialize(2, Map.of());
        String yaml = Files.readString(dir.resolve("config.yaml"));
        assertTrue(yaml.contains("taskmanager.memory.managed.size: 24m\n"), yaml);
        assertTrue(yaml.contains("taskmanager.memory.network.max: 16m\n"), yaml);
        assertTrue(yaml.contains("security.delegation.tokens.enabled: false\n"), yaml);
        assertNull(FlinkLocalConf.materialize(2, Map.of(FlinkLocalConf.ENV, "/etc/flink")));
    }

    @Test
    void parallelism16RunsOnTheSizedCluster(@TempDir Path tmp) throws Exception {
        // below these sizes Flink fails at p=16 ("Too little memory provided to sorter",
        // "Insufficient number of network buffers"); the sweep must run and write its rows
        Path sweep = TestSweeps.write(tmp, "wide", TestSweeps.BASE + """
                name: wide
                axes: [{name: rate, path: workload.aggregate_rate, values: [10, 20, 30]}]
                seeds: [1]
                """);
        TestSweeps.Run r = TestSweeps.run(sweep, tmp.resolve("out"), RunnerChoice.of(RunnerChoice.Runner.flink, 16, "[local]", null));
        assertEquals(0, r.code(), r.err());
        assertEquals(3 * 120, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(tmp.resolve("out"), "requests")));
    }
}
