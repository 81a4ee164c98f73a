package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code servesim evolve}: a flag that does not fit is refused as the flag's problem, not the evolve file's. */
class EvolveFlagsTest {
    @Test
    void aFlinkMasterWithoutTheFlinkRunnerIsAFlagProblem(@TempDir Path tmp) {
        Path out = tmp.resolve("out");
        CliRun.Result r = CliRun.exec("evolve", "../sweeps/evolve/routing-weights.yaml", "--flink-master", "localhost:8081",
                "--output", out.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("servesim evolve: invalid flag: --flink-master: only applies to --runner flink"), r.err());
        assertFalse(Files.exists(out), "nothing is written");
    }
}
