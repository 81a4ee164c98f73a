package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import org.junit.jupiter.api.Test;

/** How a runner choice spreads cells and shards files, and which flag combinations it refuses. */
class RunnerChoiceTest {
    @Test
    void directSpreadsCellsOverOneKeyPerWorkerAndFlinkOverOneKeyPerCell() {
        assertEquals(2, RunnerChoice.of(RunnerChoice.Runner.direct, 2, null, null).spreadKeys());
        // the DirectRunner's default target parallelism is max(cores, 3)
        assertEquals(Math.max(Runtime.getRuntime().availableProcessors(), 3),
                RunnerChoice.of(RunnerChoice.Runner.direct, null, null, null).spreadKeys());
        assertEquals(0, RunnerChoice.of(RunnerChoice.Runner.flink, 2, "[local]", null).spreadKeys());
        assertEquals(0, RunnerChoice.of(RunnerChoice.Runner.flink, 2, "[local]", null).fileShards());
        assertEquals(2, RunnerChoice.of(RunnerChoice.Runner.direct, 2, null, null).fileShards());
    }

    @Test
    void flagsThatDoNotApplyAreErrorsNamingTheFlag() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> RunnerChoice.of(RunnerChoice.Runner.direct, null, "[local]", null));
        assertTrue(e.getMessage().contains("--flink-master"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> RunnerChoice.of(RunnerChoice.Runner.direct, 0, null, null));
        assertTrue(e.getMessage().contains("--parallelism"), e.getMessage());
    }
}
