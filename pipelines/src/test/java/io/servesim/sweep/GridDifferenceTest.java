package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A refused resume names what differs between the interrupted grid and the one asked for now. */
class GridDifferenceTest {
    private static final String GRID = TestSweeps.BASE + """
            name: grid
            axes: [{name: rate, path: workload.aggregate_rate, values: [10, 40]}]
            seeds: [1]
            """;

    @Test
    void namesTheChangedValuesAxesAndSeeds(@TempDir Path tmp) throws Exception {
        SweepPlan then = plan(tmp, "then", GRID);
        SweepPlan now = plan(tmp, "now", GRID.replace("max_num_seqs: 64", "max_num_seqs: 32")
                .replace("values: [10, 40]", "values: [10, 20]").replace("seeds: [1]", "seeds: [1, 2]"));
        assertEquals("base.engine.max_num_seqs: 64 then, 32 now; axes[0].values.20: absent then, {\"workload.aggregate_rate\":20}"
                + " now; axes[0].values.40: {\"workload.aggregate_rate\":40} then, absent now; seeds: [1] then, [1,2] now",
                GridDifference.describe(SweepSidecars.sweep(then), SweepSidecars.sweep(now)));
    }

    @Test
    void valuesListedInAnotherOrderAreNamed(@TempDir Path tmp) throws Exception {
        SweepPlan then = plan(tmp, "then", GRID);
        SweepPlan now = plan(tmp, "now", GRID.replace("values: [10, 40]", "values: [40, 10]"));
        assertEquals("axes[0].values: in another order ([10, 40] then, [40, 10] now)",
                GridDifference.describe(SweepSidecars.sweep(then), SweepSidecars.sweep(now)));
    }

    @Test
    void sameDefinitionButOtherCellsMeansAFileItReadsChanged(@TempDir Path tmp) throws Exception {
        SweepPlan plan = plan(tmp, "same", GRID);
        assertTrue(GridDifference.describe(SweepSidecars.sweep(plan), SweepSidecars.sweep(plan)).contains("a file it reads"));
    }

    @Test
    void aRefusedResumeSaysWhatDiffers(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out");
        Path staging = out.resolve(OutputDir.STAGING);
        java.nio.file.Files.createDirectories(Checkpoint.dir(staging));
        SweepSidecars.writeSweep(staging, plan(tmp, "then", GRID.replace("values: [10, 40]", "values: [10, 20, 40]")));
        TestSweeps.Run r = TestSweeps.run(TestSweeps.write(tmp, "now", GRID), out, TestSweeps.direct(1),
                new SweepJob.OutputFlags(false, true));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("another grid (3 cells then, 2 now; axes[0].values.20: {\"workload.aggregate_rate\":20}"
                + " then, absent now)"), r.err());
    }

    private static SweepPlan plan(Path dir, String name, String body) throws Exception {
        return SweepPlan.prepare(SweepFile.load(TestSweeps.write(dir, name, body)));
    }
}
