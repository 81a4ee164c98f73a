package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.io.OutputLock;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing lost when writers race or die, with real child processes: one writer at a time per output folder (a second
 * is refused naming the first, and the first's rows are committed exactly once); a lock left by a killed writer is
 * reported and taken over; {@code --overwrite} keeps files servesim did not write even where a sweep writes; a
 * damaged checkpoint is reported and its cell run again, so the resumed rows equal an uninterrupted run's.
 */
class OneWriterTest {
    /** 6 rates x 1 seed = 6 cells of 10,000 requests (~0.3 s each on one worker). */
    private static final String GRID = TestSweeps.BASE.replace("num_requests: 120", "num_requests: 10000") + """
            name: writers
            axes: [{name: rate, path: workload.aggregate_rate, values: [10, 15, 20, 25, 30, 35]}]
            seeds: [1]
            """;

    @Test
    void aSecondWriterIsRefusedNamingTheFirstAndTheRowsAreCommittedOnce(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "writers", GRID);
        Path out = tmp.resolve("out");
        try (ChildServesim first = ChildServesim.start(tmp.resolve("first.err"), "sweep", sweep.toString(), "--output",
                out.toString(), "--parallelism", "1")) {
            first.awaitWhileAlive(() -> Files.exists(out.resolve(OutputLock.FILE)) && ChildServesim.kept(out) > 0,
                    "the first sweep is running");
            TestSweeps.Run second = TestSweeps.run(sweep, out, TestSweeps.direct(1));
            assertEquals(2, second.code(), second.err());
            assertTrue(second.err().contains("is being written by another servesim (pid " + first.process().pid())
                    && second.err().contains("choose another --output"), second.err());
            assertTrue(second.err().contains(" --parallelism 1 --output " + out.toAbsolutePath().normalize() + "'"),
                    "the holder's whole command, its runner's flags and output folder included: " + second.err());
            TestSweeps.Run resume = TestSweeps.run(sweep, out, TestSweeps.direct(1), new SweepJob.OutputFlags(false, true));
            assertEquals(2, resume.code(), "--resume is a writer too: " + resume.err());
            assertEquals(0, first.exitCode(), first.stderr());
        }
        assertEquals(6, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "cells")));
        assertEquals(60_000, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "requests")));
        assertEquals(0, Files.size(out.resolve(OutputLock.FILE)), "the writer empties its lock as it ends");
    }

    @Test
    void aLockLeftByAKilledWriterIsReportedAndTakenOver(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "writers", GRID);
        Path out = tmp.resolve("out");
        long pid;
        try (ChildServesim killed = ChildServesim.start(tmp.resolve("killed.err"), "sweep", sweep.toString(), "--output",
                out.toString(), "--parallelism", "1")) {
            killed.awaitWhileAlive(() -> ChildServesim.kept(out) > 0, "a cell finished");
            pid = killed.process().pid();
            assertEquals(137, killed.signal("KILL"));
        }
        assertTrue(Files.readString(out.resolve(OutputLock.FILE)).contains("\"pid\":" + pid), "kill -9 leaves the lock");
        TestSweeps.Run resumed = TestSweeps.run(sweep, out, TestSweeps.direct(2), new SweepJob.OutputFlags(false, true));
        assertEquals(0, resumed.code(), resumed.err());
        assertTrue(resumed.err().contains("was left by a writer that is no longer running (pid " + pid), resumed.err());
        assertEquals(6, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "cells")));
        assertEquals(0, Files.size(out.resolve(OutputLock.FILE)));
    }

    @Test
    void overwriteNeverDeletesOrReplacesAUsersFileWhereASweepWrites(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "writers", GRID.replace("num_requests: 10000", "num_requests: 100"));
        Path out = tmp.resolve("out");
        Files.createDirectories(out.resolve(OutputDir.STAGING));
        Files.writeString(out.resolve(SweepSidecars.SUMMARY), "my summary");
        Files.writeString(out.resolve(OutputDir.STAGING).resolve("keep.txt"), "keep me");
        Map<String, String> before = SweepOutputSafetyTest.tree(out);
        for (SweepJob.OutputFlags flags : List.of(SweepJob.OutputFlags.NONE, new SweepJob.OutputFlags(true, false))) {
            TestSweeps.Run r = TestSweeps.run(sweep, out, TestSweeps.direct(1), flags);
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains(OutputDir.STAGING + "/keep.txt") && r.err().contains("never deletes"), r.err());
            assertEquals(before, SweepOutputSafetyTest.tree(out), "nothing touched, overwrite " + flags.overwrite());
        }
        Files.delete(out.resolve(OutputDir.STAGING).resolve("keep.txt"));
        TestSweeps.Run summary = TestSweeps.run(sweep, out, TestSweeps.direct(1), new SweepJob.OutputFlags(true, false));
        assertEquals(2, summary.code(), summary.err());
        assertTrue(summary.err().contains(SweepSidecars.SUMMARY + ", which no servesim manifest lists"), summary.err());
        assertEquals("my summary", Files.readString(out.resolve(SweepSidecars.SUMMARY)));
    }

    @Test
    void damagedCheckpointsAreReportedAndTheirCellsRunAgain(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "writers", GRID);
        Path out = tmp.resolve("out");
        try (ChildServesim child = ChildServesim.start(tmp.resolve("child.err"), "sweep", sweep.toString(), "--output",
                out.toString(), "--parallelism", "1")) {
            child.awaitWhileAlive(() -> ChildServesim.kept(out) >= 3, "three cells finished");
            assertEquals(130, child.signal("INT"));
        }
        List<Path> kept = Checkpoint.files(Checkpoint.dir(out.resolve(OutputDir.STAGING)));
        Path flipped = kept.get(0);
        Path cut = kept.get(1);
        try (RandomAccessFile f = new RandomAccessFile(flipped.toFile(), "rw")) {
            long at = f.length() / 2; // inside some row's bytes
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ 0x01);
        }
        try (RandomAccessFile f = new RandomAccessFile(cut.toFile(), "rw")) {
            f.setLength(f.length() - 7);
        }
        TestSweeps.Run resumed = TestSweeps.run(sweep, out, TestSweeps.direct(2), new SweepJob.OutputFlags(false, true));
        assertEquals(0, resumed.code(), resumed.err());
        assertTrue(resumed.err().contains("damaged checkpoint " + flipped) && resumed.err().contains("damaged checkpoint " + cut),
                resumed.err());
        assertEquals(kept.size() - 2, SweepOutputSafetyTest.summaryField(out, "cells_resumed"));

        Path whole = tmp.resolve("whole");
        assertEquals(0, TestSweeps.run(sweep, whole, TestSweeps.direct(null)).code());
        for (String dataset : List.of("cells", "requests")) {
            assertEquals(0, TestSweeps.symmetricDifference(out, whole, dataset), dataset + " rows differ");
        }
    }

    @Test
    void aCheckpointOfTheFormerFormatIsDamagedNotTrusted(@TempDir Path tmp) throws IOException {
        Path file = tmp.resolve("c.rows");
        Files.write(file, new byte[] {0, 5, 'c', 'e', 'l', 'l', 's', 0, 0, 0, 1, 42}); // format 1: UTF, length, bytes
        Checkpoint.Damaged e = org.junit.jupiter.api.Assertions.assertThrows(Checkpoint.Damaged.class,
                () -> Checkpoint.read(file));
        assertTrue(e.getMessage().startsWith(file + ": "), e.getMessage());
        Checkpoint.write(tmp, "ok", List.of(org.apache.beam.sdk.values.KV.of("cells", new byte[] {1, 2, 3})));
        assertEquals(1, Checkpoint.read(tmp.resolve("ok.rows")).size());
    }
}
