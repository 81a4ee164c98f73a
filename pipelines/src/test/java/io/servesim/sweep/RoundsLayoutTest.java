package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a job run as rounds keeps when interrupted: its finished rounds, and the cells the round that was running
 * checkpointed. Either makes a plain rerun into the folder a refusal (--resume or --overwrite), so a job interrupted in
 * its first round does not lose the cells it had finished.
 */
class RoundsLayoutTest {
    private static final JobDefinition DEFINITION = new JobDefinition("_TEST.yaml", "id");

    @Test
    void theCellsOfAnUnfinishedRoundCountAsKept(@TempDir Path tmp) throws Exception {
        ObjectNode now = JsonNodeFactory.instance.objectNode().put("id", "abc");
        RoundsLayout layout = new RoundsLayout("plan", DEFINITION, now, List.of("candidates"), Set.of(), List.of("id"), "same");
        Path dir = tmp.resolve("out");
        Path staging = dir.resolve(OutputDir.STAGING);
        Files.createDirectories(staging);
        DEFINITION.write(staging, now);
        assertEquals(0, layout.finished(staging), "nothing run yet: nothing to lose");
        // round 01 was running: two of its cells checkpointed, no _SUCCESS (a file being written does not count)
        Path checkpoint = Files.createDirectories(staging.resolve("rounds/01").resolve(OutputDir.STAGING)
                .resolve(Checkpoint.DIRECTORY));
        Files.writeString(checkpoint.resolve("c1.rows"), "x");
        Files.writeString(checkpoint.resolve("c2.rows"), "x");
        Files.writeString(checkpoint.resolve(".c3.0000.tmp"), "x");
        assertEquals(2, layout.finished(staging));
        assertEquals("0 rounds finished, and 2 finished cells of the round that was running",
                layout.progress(staging, Set.of("abc")));
        OutputDir.RefusedException e = assertThrows(OutputDir.RefusedException.class,
                () -> OutputDir.inspect(dir, layout, false, false));
        assertTrue(e.getMessage().contains("holds an interrupted plan (0 rounds finished, and 2 finished cells of the round"
                + " that was running, in " + staging + "): --resume finishes it, --overwrite discards it"), e.getMessage());
        // a finished round counts as one; its own cells are in it, not kept apart
        Files.writeString(staging.resolve("rounds/01/_SUCCESS"), "{}");
        assertEquals(1, layout.finished(staging));
        assertEquals("1 rounds finished", layout.progress(staging, Set.of("abc")));
    }
}
