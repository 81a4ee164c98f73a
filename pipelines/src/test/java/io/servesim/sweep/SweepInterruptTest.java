package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code servesim sweep} child process interrupted with SIGINT / SIGTERM mid-run: it says
 * "interrupted" and where its finished cells are, exits 130 / 143, leaves no dataset that looks
 * complete and no earlier result touched; {@code --resume} then runs only the unfinished cells and
 * writes exactly the rows of an uninterrupted sweep (DuckDB {@code EXCEPT ALL} both ways).
 */
class SweepInterruptTest {
    /** 4 rates x 2 seeds = 8 cells of 10,000 requests (~0.3 s each on one worker). */
    private static final String GRID = TestSweeps.BASE.replace("num_requests: 120", "num_requests: 10000") + """
            name: interrupted
            axes: [{name: rate, path: workload.aggregate_rate, values: [10, 20, 30, 40]}]
            seeds: [1, 2]
            """;

    @Test
    void sigintKeepsFinishedCellsAndResumeWritesTheUninterruptedRows(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "interrupted", GRID);
        Path out = tmp.resolve("out");
        Interrupted r = interruptMidway(sweep, out, "INT", tmp.resolve("child.err"));
        assertEquals(130, r.code(), r.err());
        assertTrue(r.err().contains("servesim sweep: interrupted") && r.err().contains(out.resolve(OutputDir.STAGING).toString())
                && r.err().contains("--resume"), r.err());
        assertFalse(Files.exists(out.resolve("cells")), "no cells/ that looks complete");
        assertFalse(Files.exists(out.resolve("_SUCCESS")));
        assertTrue(Files.exists(out.resolve("_INCOMPLETE")));
        int kept = Checkpoint.count(out.resolve(OutputDir.STAGING));
        assertTrue(kept >= 1 && kept < 8, kept + " cells kept");

        TestSweeps.Run plain = TestSweeps.run(sweep, out, TestSweeps.direct(1));
        assertEquals(2, plain.code());
        assertTrue(plain.err().contains("interrupted sweep") && plain.err().contains("--resume"), plain.err());

        TestSweeps.Run resumed = TestSweeps.run(sweep, out, TestSweeps.direct(2), new SweepJob.OutputFlags(false, true));
        assertEquals(0, resumed.code(), resumed.err());
        assertEquals(kept, SweepOutputSafetyTest.summaryField(out, "cells_resumed"));
        assertEquals(8, SweepOutputSafetyTest.summaryField(out, "cells_completed"));
        assertFalse(Files.exists(out.resolve("_INCOMPLETE")));
        assertFalse(Files.exists(out.resolve(OutputDir.STAGING)));

        Path whole = tmp.resolve("whole");
        assertEquals(0, TestSweeps.run(sweep, whole, TestSweeps.direct(null)).code());
        for (String dataset : List.of("cells", "requests")) {
            assertEquals(0, TestSweeps.symmetricDifference(out, whole, dataset), dataset + " rows differ");
        }
        assertEquals(80_000, TestSweeps.scalar("SELECT count(*) FROM " + TestSweeps.glob(out, "requests")));
    }

    @Test
    void sigtermDuringAReRunLeavesTheEarlierResultsUntouched(@TempDir Path tmp) throws Exception {
        Path sweep = TestSweeps.write(tmp, "interrupted", GRID);
        Path out = tmp.resolve("out");
        assertEquals(0, TestSweeps.run(sweep, out, TestSweeps.direct(null)).code());
        Map<String, String> good = SweepOutputSafetyTest.tree(out);

        Interrupted r = interruptMidway(sweep, out, "TERM", tmp.resolve("child.err"));
        assertEquals(143, r.code(), r.err());
        assertTrue(r.err().contains("servesim sweep: interrupted") && r.err().contains("earlier results"), r.err());
        Map<String, String> after = SweepOutputSafetyTest.tree(out);
        after.keySet().removeIf(f -> f.startsWith(OutputDir.STAGING + "/"));
        assertEquals(good, after, "the earlier complete results are exactly as they were");

        assertEquals(0, TestSweeps.run(sweep, out, TestSweeps.direct(null), new SweepJob.OutputFlags(true, false)).code());
        assertEquals(0, TestSweeps.symmetricDifference(out, tmp.resolve("out"), "cells"));
        assertFalse(Files.exists(out.resolve(OutputDir.STAGING)), "--overwrite discarded the interrupted sweep");
    }

    private record Interrupted(int code, String err) {
    }

    /**
     * Starts {@code servesim sweep} on one worker in a child JVM, waits until it has finished its
     * first cell, sends {@code signal}, and returns its exit code and stderr.
     */
    private static Interrupted interruptMidway(Path sweep, Path out, String signal, Path errFile) throws Exception {
        try (ChildServesim child = ChildServesim.start(errFile, "sweep", sweep.toString(), "--output", out.toString(),
                "--parallelism", "1")) {
            child.awaitWhileAlive(() -> ChildServesim.kept(out) > 0, "a cell finished");
            return new Interrupted(child.signal(signal), child.stderr());
        }
    }
}
