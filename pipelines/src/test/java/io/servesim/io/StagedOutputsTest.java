package io.servesim.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.exit.UsageException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command's single-file outputs ({@code run --requests-out}, {@code replay-real --out}, {@code compare --output}):
 * committed only when the command succeeds, and never over a file another writer put there meanwhile.
 */
class StagedOutputsTest {
    @TempDir
    Path dir;

    private static final PrintStream ERR = new PrintStream(new ByteArrayOutputStream());

    @Test
    void aSuccessfulCommandPutsItsFileInPlace() throws Exception {
        Path target = dir.resolve("r.csv");
        try (StagedOutputs staged = StagedOutputs.start("run", ERR)) {
            Files.writeString(staged.stage("--requests-out", target, false), "mine");
            staged.commit();
        }
        assertEquals("mine", Files.readString(target));
        assertEquals(List.of(target), files(), "no temporary file is left");
    }

    @Test
    void aWriteFailureThatNamesNoFileIsReportedWithTheOutputsBeingWritten() throws Exception {
        Path target = dir.resolve("r.parquet");
        try (StagedOutputs staged = StagedOutputs.start("run", ERR)) {
            // a full disk: the stream's write fails with the device's message and no path
            java.io.UncheckedIOException full = new java.io.UncheckedIOException(new java.io.IOException("No space left on device"));
            assertEquals(null, staged.unnamedWriteFailure(full), "nothing staged: nothing to name");
            staged.stage("--requests-out", target, false);
            assertEquals("cannot write --requests-out " + target + " (nothing was put in place)", staged.unnamedWriteFailure(full));
            assertEquals(null, staged.unnamedWriteFailure(new java.nio.file.AccessDeniedException("/x/y")), "it names its file");
            assertEquals(null, staged.unnamedWriteFailure(new IllegalStateException("a simulation error")));
        }
    }

    @Test
    void aFileAnotherWriterCreatedMeanwhileIsKeptAndOursIsSetAside() throws Exception {
        // two runs with the same --requests-out: both checked the path was free; the other committed first
        Path target = dir.resolve("r.parquet");
        UsageException e;
        try (StagedOutputs staged = StagedOutputs.start("run", ERR)) {
            Files.writeString(staged.stage("--requests-out", target, false), "mine");
            Files.writeString(target, "the other run's");
            e = assertThrows(UsageException.class, staged::commit);
        }
        assertEquals("the other run's", Files.readString(target), "the other writer's file is left as it is");
        List<Path> aside = files().stream().filter(p -> !p.equals(target)).toList();
        assertEquals(1, aside.size(), files().toString());
        assertTrue(aside.get(0).getFileName().toString().matches("r\\.[0-9a-f]{8}\\.parquet"), aside.toString());
        assertEquals("mine", Files.readString(aside.get(0)), "nothing this run computed is lost");
        assertTrue(e.getMessage().contains("--requests-out " + target + " was created by another writer while this run ran")
                && e.getMessage().contains("this run's output is in " + aside.get(0)), e.getMessage());
    }

    @Test
    void aSymbolicLinkToNothingIsRefusedBeforeAnyWorkAsAFileThatExists() throws Exception {
        Path dangling = Files.createSymbolicLink(dir.resolve("r.parquet"), dir.resolve("nowhere").resolve("r.parquet"));
        try (StagedOutputs staged = StagedOutputs.start("run", ERR)) {
            UsageException e = assertThrows(UsageException.class, () -> staged.stage("--requests-out", dangling, false));
            assertTrue(e.getMessage().contains(": exists (a symbolic link to nothing)"), e.getMessage());
        }
        assertTrue(Files.isSymbolicLink(dangling));
    }

    @Test
    void aFileInASweepsDatasetFolderIsRefusedBeforeAnyWork() throws Exception {
        // a sweep's output: _SWEEP.yaml beside cells/, which holds its parts; compare/ beside them holds compare.parquet
        Path sweep = Files.createDirectories(dir.resolve("qs"));
        Files.writeString(sweep.resolve("_SWEEP.yaml"), "name: qs\n");
        Path cells = Files.createDirectories(sweep.resolve("cells"));
        Files.writeString(cells.resolve("part-00000-of-00001.parquet"), "parquet");
        try (StagedOutputs staged = StagedOutputs.start("run", ERR)) {
            UsageException e = assertThrows(UsageException.class,
                    () -> staged.stage("--requests-out", cells.resolve("extra.parquet"), false));
            assertTrue(e.getMessage().contains("a dataset folder of the servesim output " + sweep)
                    && e.getMessage().contains("e.g. " + dir.resolve("qs-extra.parquet")), e.getMessage());
            staged.stage("--output", sweep.resolve("compare").resolve("compare.parquet"), false); // no parts there
            staged.stage("--requests-out", dir.resolve("elsewhere").resolve("cells").resolve("r.parquet"), false);
        }
        assertEquals(List.of("part-00000-of-00001.parquet"), Files.list(cells).map(p -> p.getFileName().toString()).toList());
    }

    @Test
    void overwriteReplacesWhatIsThere() throws Exception {
        Path target = dir.resolve("r.csv");
        Files.writeString(target, "old");
        try (StagedOutputs staged = StagedOutputs.start("run", ERR)) {
            Files.writeString(staged.stage("--requests-out", target, true), "mine");
            staged.commit();
        }
        assertEquals("mine", Files.readString(target));
        assertEquals(List.of(target), files());
    }

    /**
     * A process killed outright (SIGKILL) runs no cleanup: what it was writing stays in its hidden staging folder, where
     * a glob of the target's folder does not reach it. DuckDB's glob, which does list hidden files, finds only the
     * complete file beside it (a staged {@code .r.parquet.<uuid>.partial.parquet} in the folder itself was read as a
     * broken Parquet file).
     */
    @Test
    void whatAKilledCommandLeavesIsOutOfAGlobsReach() throws Exception {
        Files.writeString(dir.resolve("done.parquet"), "a complete file");
        StagedOutputs killed = StagedOutputs.start("run", ERR);
        Path temp = killed.stage("--requests-out", dir.resolve("r.parquet"), false);
        Files.writeString(temp, "half");
        assertEquals("r.parquet", temp.getFileName().toString(), "the writer sees the target's extension");
        assertTrue(temp.getParent().getFileName().toString().matches("\\.r\\.parquet\\.[0-9a-f-]{36}\\.partial"), temp.toString());
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:");
             java.sql.ResultSet r = c.createStatement().executeQuery("SELECT list(file) FROM glob('" + dir + "/*.parquet')")) {
            r.next();
            assertEquals("[" + dir.resolve("done.parquet") + "]", r.getString(1));
        }
        killed.close();
        assertEquals(List.of(dir.resolve("done.parquet")), files(), "a command that fails removes its staging folder");
    }

    private List<Path> files() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }
}
