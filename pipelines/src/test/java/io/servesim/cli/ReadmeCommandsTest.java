package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.latency.ModelCatalog;
import io.servesim.testing.RepoFiles;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ReadmeCommands}: what {@link ReadmeCommandsIT} takes from the README to run. */
class ReadmeCommandsTest {
    private static final String LAUNCHER = ReadmeCommands.LAUNCHER;

    @Test
    void outputBlocksAreThePlainFencedBlocks() {
        String md = """
                ```
                routing  load
                a        1
                ```
                ```yaml
                not: shown output
                ```
                ```bash
                scripts/servesim x
                ```
                ```
                metric   n
                ```
                """;
        assertEquals(List.of(List.of("routing  load", "a        1"), List.of("metric   n")), ReadmeCommands.outputBlocks(md));
        assertEquals("a 1 2.0", ReadmeCommands.squeezed("  a      1   2.0 "));
    }

    @Test
    void parsesCommandsContinuationsQuotesAndComments() {
        String readme = """
                text `scripts/servesim run --inline` is not run
                ```bash
                scripts/servesim sweep sweeps/q.yaml    # trailing comment
                mvn -B -ntp verify                      # a Maven line is allowed, not run
                # a comment
                scripts/servesim compare --sim out/a \\
                  --on 'a,b' --x "c d"
                ```
                ```yaml
                scripts/servesim: not a command in a yaml block
                ```
                """;
        assertEquals(List.of(List.of(LAUNCHER, "sweep", "sweeps/q.yaml"),
                List.of(LAUNCHER, "compare", "--sim", "out/a", "--on", "a,b", "--x", "c d")), ReadmeCommands.parse(readme));
    }

    @Test
    void aBashLineThatIsNoCommandIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ReadmeCommands.parse("```bash\nservesim run\n```\n"));
        assertTrue(e.getMessage().contains("line 2: 'servesim run'"), e.getMessage());
    }

    @Test
    void theReadmesBashBlocksHoldOnlyCommands() throws Exception {
        // parse() refuses any other line; the IT runs what it returns
        assertTrue(ReadmeCommands.parse(Files.readString(RepoFiles.path("README.md"))).size() >= 10);
    }

    @Test
    void theReadmeCountsTheBundledModels() throws Exception {
        int bundled = ModelCatalog.builtIn().ids().size();
        assertTrue(Files.readString(RepoFiles.path("README.md")).contains("(" + bundled + " are bundled, `sweeps/data/models/`)"),
                "the README's model count is the catalog's, " + bundled);
    }
}
