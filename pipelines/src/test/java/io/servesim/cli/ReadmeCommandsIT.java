package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.servesim.testing.RepoFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README cannot drift: every {@code scripts/servesim ...} line of its {@code bash} code blocks runs, as written
 * and in the README's order, through the real launcher after {@code package}, and must exit 0. They run in a fresh
 * folder that sees the repository's {@code sweeps/} (a symbolic link), so what a command writes under {@code out/}
 * stays out of the checkout and a later command finds what an earlier one wrote, as a user going down the README
 * would. Every other line of a {@code bash} block must be a comment, a Maven command or a continuation, so a
 * command cannot hide in a block this test skips. Output the README, docs/sweeps.md or docs/plan.md shows (every plain
 * code block: the quickstart's, plan's, capacity's and compare's) must be what the command whose output starts with its
 * first line prints, row for row, blanks aside; a plain block no command printed the head of fails, so a block cannot
 * go stale unseen (an illustration that no README command prints is fenced {@code ```text}).
 */
class ReadmeCommandsIT {
    private static final String LAUNCHER = ReadmeCommands.LAUNCHER;
    private static final long TIMEOUT_S = 300;

    @Test
    void everyReadmeCommandRunsAsWritten(@TempDir Path home) throws Exception {
        List<List<String>> commands = ReadmeCommands.parse(Files.readString(RepoFiles.path("README.md")));
        assertTrue(commands.size() >= 10, "README commands found: " + commands);
        assertEquals(List.of(LAUNCHER, "sweep", "sweeps/quickstart.yaml"), commands.get(0), "the main job comes first");
        Path link = Files.createSymbolicLink(home.resolve("sweeps"), RepoFiles.path("sweeps"));
        List<List<String>> shown = new ArrayList<>();
        for (String doc : List.of("README.md", "docs/sweeps.md", "docs/plan.md")) {
            shown.addAll(ReadmeCommands.outputBlocks(Files.readString(RepoFiles.path(doc))));
        }
        Set<List<String>> checked = new HashSet<>();
        try {
            for (List<String> command : commands) {
                String out = run(command, home);
                Set<String> printed = new HashSet<>();
                out.lines().map(ReadmeCommands::squeezed).forEach(printed::add);
                for (List<String> block : shown) {
                    // a shown block headed by a line the command printed is that command's output, row for row
                    if (!block.isEmpty() && printed.contains(ReadmeCommands.squeezed(block.get(0)))) {
                        checked.add(block);
                        for (String row : block) {
                            assertTrue(row.strip().equals("...") || printed.contains(ReadmeCommands.squeezed(row)),
                                    "the docs show a row '" + row + "' that " + String.join(" ", command)
                                            + " does not print; it prints:\n" + out);
                        }
                    }
                }
            }
            for (List<String> block : shown) {
                assertTrue(checked.contains(block), "the docs show output no README command prints the first line of"
                        + " (run it and paste what it prints, or fence an illustration ```text):\n" + String.join("\n", block));
            }
        } finally {
            Files.delete(link); // before @TempDir's clean-up, which would warn about a link leaving the folder
        }
    }

    /** Runs {@code command} in {@code home}, checks it exits 0 and prints something; returns its stdout. */
    private static String run(List<String> command, Path home) throws Exception {
        List<String> argv = new ArrayList<>(command);
        argv.set(0, RepoFiles.path(LAUNCHER).toString());
        Process p = new ProcessBuilder(argv).directory(home.toFile())
                .redirectOutput(home.resolve("stdout.txt").toFile()).redirectError(home.resolve("stderr.txt").toFile())
                .start();
        if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(String.join(" ", command) + ": still running after " + TIMEOUT_S + " s");
        }
        String out = Files.readString(home.resolve("stdout.txt"), StandardCharsets.UTF_8);
        String err = Files.readString(home.resolve("stderr.txt"), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), String.join(" ", command) + "\nstdout:\n" + tail(out) + "\nstderr:\n" + tail(err));
        assertFalse(out.isBlank() && err.isBlank(), String.join(" ", command) + " printed nothing");
        return out;
    }

    private static String tail(String s) {
        return s.length() <= 4000 ? s : "..." + s.substring(s.length() - 4000);
    }
}
