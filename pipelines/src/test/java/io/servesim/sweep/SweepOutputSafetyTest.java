package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep never deletes or overwrites a file it did not write, never leaves datasets that look
 * complete when they are not, and a resumed sweep writes the rows an uninterrupted one writes.
 */
class SweepOutputSafetyTest {
    private static final String GRID = TestSweeps.BASE + """
            name: safety
            axes: [{name: rate, path: workload.aggregate_rate, values: [10, 40]}]
            seeds: [1]
            """;

    @Test
    void aUsersFilesSurviveAndARefusalNamesThem(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "safety", GRID);
        Path out = tmp.resolve("out");
        Files.createDirectories(out.resolve("cells"));
        Files.writeString(out.resolve("notes.txt"), "my notes");
        Files.writeString(out.resolve("_SUCCESS.tmp"), "mine too"); // a name like the one a marker was once written to
        Files.writeString(out.resolve("cells/mine.parquet"), "not servesim's");

        TestSweeps.Run inDataset = TestSweeps.run(sweep, out, TestSweeps.direct(1), new SweepJob.OutputFlags(true, false));
        assertEquals(2, inDataset.code(), "a foreign file inside cells/ is refused even with --overwrite");
        assertTrue(inDataset.err().contains("cells/mine.parquet"), inDataset.err());
        Files.delete(out.resolve("cells/mine.parquet"));

        TestSweeps.Run notASweep = TestSweeps.run(sweep, out, TestSweeps.direct(1));
        assertEquals(2, notASweep.code());
        assertTrue(notASweep.err().contains("not empty and is not a servesim sweep") && notASweep.err().contains("notes.txt")
                && notASweep.err().contains("--overwrite"), notASweep.err());

        assertEquals(0, TestSweeps.run(sweep, out, TestSweeps.direct(1), new SweepJob.OutputFlags(true, false)).code());
        assertEquals("my notes", Files.readString(out.resolve("notes.txt")));
        assertEquals("mine too", Files.readString(out.resolve("_SUCCESS.tmp")));
        assertEquals(2, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "cells")));

        // a sweep of the same grid replaces its own results and still keeps the user's file
        assertEquals(0, TestSweeps.run(sweep, out, TestSweeps.direct(2)).code());
        assertEquals("my notes", Files.readString(out.resolve("notes.txt")));
        assertEquals(2, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "cells")));
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        assertFalse(Files.exists(out.resolve("_INCOMPLETE")));
        assertFalse(Files.exists(out.resolve(OutputDir.STAGING)));
    }

    @Test
    void anotherGridIsReplacedOnlyWithOverwriteAndLeavesNoStaleShards(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out");
        Path first = TestSweeps.write(tmp, "first", GRID.replace("values: [10, 40]", "values: [10, 20, 40]"));
        assertEquals(0, TestSweeps.run(first, out, TestSweeps.direct(3)).code());
        Map<String, String> before = tree(out);

        Path second = TestSweeps.write(tmp, "second", GRID);
        TestSweeps.Run refused = TestSweeps.run(second, out, TestSweeps.direct(1));
        assertEquals(2, refused.code());
        assertTrue(refused.err().contains("another sweep grid"), refused.err());
        assertEquals(before, tree(out), "a refused sweep touches nothing");

        assertEquals(0, TestSweeps.run(second, out, TestSweeps.direct(1), new SweepJob.OutputFlags(true, false)).code());
        // 2 cells now, not 3 + 2: the first sweep's shards (3 workers' files) are gone
        assertEquals(2, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "cells")));
        assertEquals(240, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "requests")));
        String manifest = Files.readString(out.resolve("_SUCCESS"));
        try (Stream<Path> files = Files.walk(out)) {
            files.filter(Files::isRegularFile).map(f -> out.relativize(f).toString())
                    .filter(f -> !f.equals("_SUCCESS"))
                    // the writers' lock is never listed: a later commit deleting it would unlock the folder mid-sweep
                    .filter(f -> !f.equals(io.servesim.io.OutputLock.FILE))
                    .forEach(f -> assertTrue(manifest.contains("\"" + f + "\""), f + " is listed in _SUCCESS"));
        }
    }

    @Test
    void resumeWithoutAnInterruptedSweepIsRefusedAndAFinishedOneIsLeftAlone(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "safety", GRID);
        Path out = tmp.resolve("out");
        TestSweeps.Run nothing = TestSweeps.run(sweep, out, TestSweeps.direct(1), new SweepJob.OutputFlags(false, true));
        assertEquals(2, nothing.code());
        assertTrue(nothing.err().contains("nothing to resume"), nothing.err());
        assertEquals(0, TestSweeps.run(sweep, out, TestSweeps.direct(1)).code());
        Map<String, String> done = tree(out);
        TestSweeps.Run again = TestSweeps.run(sweep, out, TestSweeps.direct(1), new SweepJob.OutputFlags(false, true));
        assertEquals(0, again.code());
        assertTrue(again.err().contains("already holds this sweep's complete results"), again.err());
        assertEquals(done, tree(out));
    }

    @Test
    void whatACommitCutAfterItsSuccessLeftIsDiscardedByTheNextRun(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "safety", GRID);
        Path out = tmp.resolve("out");
        assertEquals(0, TestSweeps.run(sweep, out, TestSweeps.direct(1)).code());
        Map<String, String> done = tree(out);
        Path staging = leaveCutCommit(out, SweepPlan.prepare(SweepFile.load(sweep)).cells().get(0).cellId());
        TestSweeps.Run resumed = TestSweeps.run(sweep, out, TestSweeps.direct(1), new SweepJob.OutputFlags(false, true));
        assertEquals(0, resumed.code(), resumed.err());
        assertTrue(resumed.err().contains("already holds this sweep's complete results"), resumed.err());
        assertEquals(done, tree(out), "the leftover is gone and the results are as they were");

        leaveCutCommit(out, SweepPlan.prepare(SweepFile.load(sweep)).cells().get(1).cellId());
        TestSweeps.Run again = TestSweeps.run(sweep, out, TestSweeps.direct(1));
        assertEquals(0, again.code(), again.err());
        assertFalse(Files.exists(staging));
        assertEquals(2, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "cells")));
    }

    /**
     * What a kill -9 while a commit deleted its staging folder leaves beside the sweep in {@code out}: the definition, a
     * cell's checkpoint and the commit's marker; returns the staging folder.
     */
    private static Path leaveCutCommit(Path out, String cellId) throws IOException {
        Path staging = Files.createDirectories(Checkpoint.dir(out.resolve(OutputDir.STAGING))).getParent();
        Files.copy(out.resolve(SweepSidecars.SWEEP), staging.resolve(SweepSidecars.SWEEP));
        Checkpoint.write(Checkpoint.dir(staging), cellId, List.of());
        Files.writeString(staging.resolve(OutputCommit.COMMITTED), "");
        return staging;
    }

    @Test
    void aSweepInsideAnotherSweepsFolderIsRefusedEvenWithOverwrite(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "safety", GRID);
        Path out = tmp.resolve("out");
        assertEquals(0, TestSweeps.run(sweep, out, TestSweeps.direct(1)).code());
        Map<String, String> done = tree(out);
        for (Path inside : List.of(out.resolve("cells"), out.resolve("more/deeper"))) {
            TestSweeps.Run r = TestSweeps.run(sweep, inside, TestSweeps.direct(1), new SweepJob.OutputFlags(true, false));
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains("sweep output " + inside + ": inside " + out + ", the output folder of a sweep")
                    && r.err().contains("choose a folder outside it"), r.err());
        }
        assertEquals(done, tree(out), "nothing was written into the sweep's folder");
    }

    @Test
    void anOutputAtASymbolicLinkToNothingIsRefusedBeforeAnythingRunsAndKept(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "safety", GRID);
        Path link = Files.createSymbolicLink(tmp.resolve("out"), tmp.resolve("gone"));
        TestSweeps.Run r = TestSweeps.run(sweep, link, TestSweeps.direct(1));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("sweep output " + link + ": a symbolic link to nothing (" + tmp.resolve("gone") + ")"),
                r.err());
        assertTrue(Files.isSymbolicLink(link) && !Files.exists(tmp.resolve("gone")));
    }

    @Test
    void anOutputPathThatIsAFileIsRefusedBeforeAnythingRuns(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "safety", GRID);
        Path file = tmp.resolve("taken");
        Files.writeString(file, "mine");
        TestSweeps.Run r = TestSweeps.run(sweep, file, TestSweeps.direct(1));
        assertEquals(2, r.code());
        assertTrue(r.err().contains("is a file, not a directory"), r.err());
        assertEquals("mine", Files.readString(file));
    }

    @Test
    void aStagingFolderWithNoFinishedCellIsStartedOverWithoutAsking(@TempDir Path tmp) throws Exception {
        // what a sweep that failed before any cell finished (say, an unreachable Flink master) leaves
        Path sweep = TestSweeps.write(tmp, "safety", GRID);
        Path out = tmp.resolve("out");
        Path staging = out.resolve(OutputDir.STAGING);
        Files.createDirectories(Checkpoint.dir(staging));
        SweepSidecars.writeSweep(staging, SweepPlan.prepare(SweepFile.load(sweep)));
        OutputManifest.incomplete("interrupted", java.util.List.of()).write(out);
        TestSweeps.Run r = TestSweeps.run(sweep, out, TestSweeps.direct(1));
        assertEquals(0, r.code(), r.err());
        assertEquals(2, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "cells")));
        assertFalse(Files.exists(staging));
    }

    /** What a sweep of {@code sweep} interrupted after its first cell finished leaves in {@code out}; its plan. */
    private static SweepPlan interrupted(Path sweep, Path out) throws Exception {
        Path staging = out.resolve(OutputDir.STAGING);
        Files.createDirectories(Checkpoint.dir(staging));
        SweepPlan plan = SweepPlan.prepare(SweepFile.load(sweep));
        SweepSidecars.writeSweep(staging, plan);
        Checkpoint.write(Checkpoint.dir(staging), plan.cells().get(0).cellId(), List.of());
        OutputManifest.incomplete("interrupted", List.of()).write(out);
        return plan;
    }

    /** A file of the user's in the checkpoint folder is not taken for a cell's checkpoint (and deleted with the folder). */
    @Test
    void aStrayFileInTheCheckpointFolderIsNotACell(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "safety", GRID);
        Path out = tmp.resolve("out");
        interrupted(sweep, out);
        for (String name : new String[] {"zzzz.rows", "0123456789abcdef.rows"}) { // the second named like a cell's
            Path stray = Files.writeString(Checkpoint.dir(out.resolve(OutputDir.STAGING)).resolve(name), "mine");
            TestSweeps.Run r = TestSweeps.run(sweep, out, TestSweeps.direct(1), new SweepJob.OutputFlags(false, true));
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains("files servesim did not write in _staging/ (_staging/_checkpoint/" + name + ")"), r.err());
            assertEquals("mine", Files.readString(stray));
            Files.delete(stray);
        }
    }

    /** A link where a sweep writes or deletes (a dataset folder) would take its writes and deletions outside DIR. */
    @Test
    void aLinkedDatasetFolderIsRefused(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "safety", GRID);
        Path out = tmp.resolve("out");
        assertEquals(0, TestSweeps.run(sweep, out, TestSweeps.direct(1)).code());
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Path theirs = Files.writeString(elsewhere.resolve("part-00000-of-00001.parquet"), "user data");
        OutputCommit.deleteTree(out.resolve("errors"));
        Files.createSymbolicLink(out.resolve("errors"), elsewhere);
        TestSweeps.Run r = TestSweeps.run(sweep, out, TestSweeps.direct(1), new SweepJob.OutputFlags(true, false));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("has symbolic links where a sweep writes and deletes (errors)"), r.err());
        assertEquals("user data", Files.readString(theirs));
        assertTrue(Files.isSymbolicLink(out.resolve("errors")));
    }

    /** A manifest listing a folder (edited) is not servesim's: refused before anything is deleted, not stuck midway. */
    @Test
    void aManifestListingAFolderIsNotServesims(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "safety", GRID);
        Path out = tmp.resolve("out");
        assertEquals(0, TestSweeps.run(sweep, out, TestSweeps.direct(1)).code());
        Files.writeString(Files.createDirectories(out.resolve("mydir")).resolve("notes.txt"), "mine");
        Path success = out.resolve(OutputManifest.Marker.SUCCESS.file);
        Files.writeString(success, Files.readString(success).replace("\"files\" : [", "\"files\" : [ \"mydir\","));
        Map<String, String> before = tree(out);
        Path other = TestSweeps.write(tmp, "other", GRID.replace("values: [10, 40]", "values: [10, 20]"));
        TestSweeps.Run r = TestSweeps.run(other, out, TestSweeps.direct(1), new SweepJob.OutputFlags(true, false));
        assertEquals(2, r.code(), r.err());
        assertEquals(before, tree(out), "nothing deleted");
    }

    @Test
    void resumeWithOtherOutputsIsRefusedBeforeAnythingRuns(@TempDir Path tmp) throws Exception {
        // an interrupted sweep that wrote requests/ and kept one finished cell; the sweep file then turns requests off
        Path sweep = TestSweeps.write(tmp, "safety", GRID);
        Path out = tmp.resolve("out");
        SweepPlan plan = interrupted(sweep, out);
        Map<String, String> before = tree(out);

        Path fewer = TestSweeps.write(tmp, "safety", GRID + "outputs: {requests: false}\n");
        TestSweeps.Run r = TestSweeps.run(fewer, out, TestSweeps.direct(1), new SweepJob.OutputFlags(false, true));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("cannot resume") && r.err().contains("requests: true then, false now")
                && r.err().contains("--overwrite discards it"), r.err());
        assertEquals(before, tree(out), "a refused resume touches nothing");
    }

    /**
     * The same cells under axes listed in another order are other columns and cell indices: the kept rows of the
     * interrupted sweep cannot be resumed under them (they were written under the new columns, values swapped), and a
     * finished sweep's results are not this one's.
     */
    @Test
    void axesInAnotherOrderAreAnotherSweep(@TempDir Path tmp) throws Exception {
        String rate = "  - {name: rate, path: workload.aggregate_rate, values: [10, 40]}\n";
        String seqs = "  - {name: seqs, path: engine.max_num_seqs, values: [8, 16]}\n";
        String two = TestSweeps.BASE + "name: order\naxes:\n" + rate + seqs + "seeds: [1]\n";
        String swapped = TestSweeps.BASE + "name: order\naxes:\n" + seqs + rate + "seeds: [1]\n";
        Path sweep = TestSweeps.write(tmp, "order", two);
        Path out = tmp.resolve("out");
        SweepPlan plan = interrupted(sweep, out);
        Map<String, String> before = tree(out);
        Path other = TestSweeps.write(tmp, "order-swapped", swapped);
        assertEquals(plan.cells().stream().map(c -> c.cellId()).sorted().toList(), SweepPlan.prepare(SweepFile.load(other))
                .cells().stream().map(c -> c.cellId()).sorted().toList(), "the same cells");
        TestSweeps.Run r = TestSweeps.run(other, out, TestSweeps.direct(1), new SweepJob.OutputFlags(false, true));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("cannot resume") && r.err().contains("axes[0].name: \"rate\" then, \"seqs\" now"),
                r.err());
        assertEquals(before, tree(out), "a refused resume touches nothing");

        Path done = tmp.resolve("done");
        assertEquals(0, TestSweeps.run(sweep, done, TestSweeps.direct(1)).code());
        r = TestSweeps.run(other, done, TestSweeps.direct(1), new SweepJob.OutputFlags(false, true));
        assertEquals(2, r.code(), "not the finished results of this sweep: " + r.err());
        r = TestSweeps.run(other, done, TestSweeps.direct(1));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("holds the results of another sweep"), r.err());
    }

    /** A sweep written around another sweep's folder would strand it inside its own: refused, --overwrite too. */
    @Test
    void aFolderHoldingAnotherSweepsOutputIsRefused(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "safety", GRID);
        Path parent = tmp.resolve("par");
        assertEquals(0, TestSweeps.run(sweep, parent.resolve("child"), TestSweeps.direct(1)).code());
        Map<String, String> before = tree(parent);
        for (boolean overwrite : new boolean[] {false, true}) {
            TestSweeps.Run r = TestSweeps.run(sweep, parent, TestSweeps.direct(1), new SweepJob.OutputFlags(overwrite, false));
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains("holds " + parent.resolve("child") + ", the output folder of a sweep"), r.err());
            assertEquals(before, tree(parent), "nothing written");
        }
    }

    /**
     * Replacing results deletes what their {@code _SUCCESS} lists: a manifest naming a file outside the folder (edited,
     * or received) is not one servesim wrote, and the files it names are never deleted.
     */
    @Test
    void aManifestNamingFilesOutsideTheFolderDeletesNothing(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "safety", GRID);
        Path out = tmp.resolve("out");
        assertEquals(0, TestSweeps.run(sweep, out, TestSweeps.direct(1)).code());
        Path victim = Files.writeString(tmp.resolve("victim.txt"), "mine");
        Path absolute = Files.writeString(tmp.resolve("absolute.txt"), "mine too");
        Path success = out.resolve(OutputManifest.Marker.SUCCESS.file);
        Files.writeString(success, Files.readString(success).replace("\"files\" : [", "\"files\" : [ \"../victim.txt\", \""
                + absolute + "\", \"cells/../../victim.txt\","));
        TestSweeps.Run r = TestSweeps.run(sweep, out, TestSweeps.direct(1), new SweepJob.OutputFlags(true, false));
        assertEquals(2, r.code(), r.err());
        // the manifest disowned, every file it listed is the user's: refused, as any folder of files servesim did not write
        assertTrue(r.err().contains("has files servesim did not write inside its dataset folders"), r.err());
        assertEquals("mine", Files.readString(victim));
        assertEquals("mine too", Files.readString(absolute));
        assertTrue(OutputManifest.insideTheFolder("cells/part-0.parquet"));
        for (String outside : new String[] {"../x", "/tmp/x", "cells/../../x", "./x", "", "a\\b"}) {
            assertFalse(OutputManifest.insideTheFolder(outside), outside);
        }
    }

    /** An input edited while a sweep was interrupted: its finished cells were computed from the old one, so no resume. */
    @Test
    void resumeAfterAnInputFileChangedIsRefusedBeforeAnythingRuns(@TempDir Path tmp) throws Exception {
        Files.writeString(tmp.resolve("wl.yaml"), """
                aggregate_rate: 10
                num_requests: 20
                input_distribution: {type: constant, params: {value: 64}}
                output_distribution: {type: constant, params: {value: 8}}
                """);
        Path sweep = TestSweeps.write(tmp, "edited", """
                name: edited
                base:
                  deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1}
                  workload: wl.yaml
                axes: [{name: seqs, path: engine.max_num_seqs, values: [8, 16]}]
                seeds: [1]
                """);
        Path out = tmp.resolve("out");
        SweepPlan plan = interrupted(sweep, out);
        Map<String, String> before = tree(out);

        Files.writeString(tmp.resolve("wl.yaml"), Files.readString(tmp.resolve("wl.yaml")).replace("64", "640"));
        TestSweeps.Run r = TestSweeps.run(sweep, out, TestSweeps.direct(1), new SweepJob.OutputFlags(false, true));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("cannot resume") && r.err().contains("a file it reads (a workload, trace or base"
                + " config file) changed since"), r.err());
        assertEquals(before, tree(out), "a refused resume touches nothing");
    }

    /** Every file under {@code dir} with its content digest, by relative path. */
    static Map<String, String> tree(Path dir) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path f : walk.filter(Files::isRegularFile).toList()) {
                files.put(dir.relativize(f).toString(), Integer.toHexString(java.util.Arrays.hashCode(Files.readAllBytes(f))));
            }
        }
        return files;
    }

    static long summaryField(Path out, String field) throws IOException {
        return new ObjectMapper().readTree(out.resolve("_SUMMARY.json").toFile()).get(field).asLong();
    }

    /**
     * Every cell leaves one row in cells or errors: 5 cells with 3 + 2 rows is whole; a runner that
     * dropped output (3 + 1, or the 0 + 0 the DirectRunner once "succeeded" with) is named with
     * its counts, so the sweep fails before committing instead of leaving results that look complete.
     */
    @Test
    void datasetsMissingACellsRowAreIncomplete() {
        assertNull(SweepJob.missingCells(5, Map.of(Dataset.CELLS, 3L, Dataset.ERRORS, 2L)));
        assertEquals("the sweep has 5 cells, each of which leaves one row in cells or errors, but cells holds 3 rows and errors 1",
                SweepJob.missingCells(5, Map.of(Dataset.CELLS, 3L, Dataset.ERRORS, 1L)));
        assertEquals("the sweep has 400 cells, each of which leaves one row in cells or errors, but cells holds 0 rows and errors 0",
                SweepJob.missingCells(400, Map.of(Dataset.CELLS, 0L, Dataset.ERRORS, 0L, Dataset.REQUESTS, 0L)));
    }

    /**
     * What an interruption in the first milliseconds can leave (found by a helper trying the CLI as
     * a new user): a staging folder holding only the temporary file _SWEEP.yaml was being written
     * to, or only _SWEEP.yaml. Neither may make the next run take the folder for someone else's.
     */
    @Test
    void aStagingFolderInterruptedWhileBeingSetUpDoesNotBlockTheNextRun(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "safety", GRID);
        Path out = tmp.resolve("out");
        Path staging = out.resolve(OutputDir.STAGING);
        Files.createDirectories(staging);
        Files.writeString(staging.resolve("._SWEEP.yaml.0b6c5e1e-8a3c-4b5e-9f1d-2a7c4e6b8d90.tmp"), "name: safety\ncells:\n  - ind");
        TestSweeps.Run afterTmp = TestSweeps.run(sweep, out, TestSweeps.direct(1));
        assertEquals(0, afterTmp.code(), afterTmp.err());
        assertEquals(2, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "cells")));
        assertFalse(Files.exists(staging));

        Path out2 = tmp.resolve("out2");
        Files.createDirectories(out2.resolve(OutputDir.STAGING));
        SweepSidecars.writeSweep(out2.resolve(OutputDir.STAGING), SweepPlan.prepare(SweepFile.load(sweep)));
        TestSweeps.Run afterSweepFile = TestSweeps.run(sweep, out2, TestSweeps.direct(1));
        assertEquals(0, afterSweepFile.code(), afterSweepFile.err());
        assertEquals(2, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out2, "cells")));
    }

    /** An interrupted sweep of another grid is not offered --resume, which would refuse it (found by a new-user helper). */
    @Test
    void anInterruptedSweepOfAnotherGridIsNotOfferedResume(@TempDir Path tmp) throws Exception {
        Path other = TestSweeps.write(tmp, "other", GRID.replace("values: [10, 40]", "values: [10, 20, 40]"));
        Path out = tmp.resolve("out");
        Path staging = out.resolve(OutputDir.STAGING);
        SweepPlan otherPlan = SweepPlan.prepare(SweepFile.load(other));
        Files.createDirectories(Checkpoint.dir(staging));
        SweepSidecars.writeSweep(staging, otherPlan);
        Checkpoint.write(Checkpoint.dir(staging), otherPlan.cells().get(0).cellId(), List.of());

        TestSweeps.Run run = TestSweeps.run(TestSweeps.write(tmp, "safety", GRID), out, TestSweeps.direct(1));
        assertEquals(2, run.code());
        assertTrue(run.err().contains("interrupted sweep of another grid (1 of 3 cells finished")
                && run.err().contains("--overwrite") && !run.err().contains("--resume"), run.err());
    }
}
