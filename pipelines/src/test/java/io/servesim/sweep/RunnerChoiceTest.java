package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import org.junit.jupiter.api.Test;

/** How a runner choice spreads cells and writes files, and which flag combinations it refuses. */
class RunnerChoiceTest {
    @Test
    void directRunsOneBundleOnCellThreadsAndFlinkSpreadsOneKeyPerCell() {
        RunnerChoice direct2 = RunnerChoice.of(RunnerChoice.Runner.direct, 2, null, null);
        assertTrue(direct2.cellsInBundles());
        assertEquals(2, direct2.cellThreads());
        assertTrue(direct2.writesBundleFiles());
        // without the flag: one cell thread per core
        assertEquals(Runtime.getRuntime().availableProcessors(),
                RunnerChoice.of(RunnerChoice.Runner.direct, null, null, null).cellThreads());
        RunnerChoice flink = RunnerChoice.of(RunnerChoice.Runner.flink, 2, "[local]", null);
        assertFalse(flink.cellsInBundles());
        assertFalse(flink.writesBundleFiles());
        assertEquals(1, flink.cellThreads());
    }

    @Test
    void itsFlagsAreThoseThatChoseIt() {
        // what a resume command and a lock repeat: nothing for the default, and a path a shell would split quoted
        assertEquals("", RunnerChoice.of(RunnerChoice.Runner.direct, null, null, null).flags());
        assertEquals(" --parallelism 3", RunnerChoice.of(RunnerChoice.Runner.direct, 3, null, null).flags());
        assertEquals(" --runner flink", RunnerChoice.of(RunnerChoice.Runner.flink, null, null, null).flags());
        assertEquals(" --runner flink --parallelism 2", RunnerChoice.of(RunnerChoice.Runner.flink, 2, "[local]", null).flags());
        assertEquals("plain/path.yaml", ShellWord.quote("plain/path.yaml"));
        assertEquals("'my sweeps/it'\\''s.yaml'", ShellWord.quote("my sweeps/it's.yaml"));
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
