package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit cut short after any one of its file-system changes (a {@code kill -9}, a power cut) leaves a folder the
 * next run can use: {@code --resume} finishes it (or finds the results whole), {@code --overwrite} discards it, and no
 * run refuses servesim's own files as someone else's; at no instant does a {@code _SUCCESS} (the folder's or a round's)
 * list a file that is not there.
 */
class OutputCommitTest {
    private static final String GRID = TestSweeps.BASE + """
            name: cut
            axes: [{name: rate, path: workload.aggregate_rate, values: [10, 40]}]
            seeds: [1]
            """;
    private static final JobDefinition DEFINITION = new JobDefinition("_TEST.yaml", "id");
    private static final ObjectNode NOW = JsonNodeFactory.instance.objectNode().put("id", "abc");

    /** The commit was cut: the process died here. */
    private static final class Cut extends IOException {
        private static final long serialVersionUID = 1L;
    }

    /** A finished sweep's staging folder and what its commit moves (its datasets faked: the commit never reads them). */
    private record Staged(OutputLayout layout, List<String> fresh, String definition) {
    }

    private interface Stager {
        Staged stage(Path out) throws IOException;
    }

    private static Stager sweep(Path tmp) throws IOException {
        SweepPlan plan = SweepPlan.prepare(SweepFile.load(TestSweeps.write(tmp, "cut", GRID)));
        return out -> {
            Path staging = Files.createDirectories(out.resolve(OutputDir.STAGING));
            SweepSidecars.writeSweep(staging, plan);
            Files.createDirectories(Checkpoint.dir(staging));
            for (Cell c : plan.cells()) {
                Checkpoint.write(Checkpoint.dir(staging), c.cellId(), List.of());
            }
            List<String> fresh = new ArrayList<>(List.of("cells/part-0.parquet", "requests/part-0.parquet"));
            for (String f : fresh) {
                Files.createDirectories(staging.resolve(f).getParent());
                Files.writeString(staging.resolve(f), "rows");
            }
            Files.writeString(staging.resolve(SweepSidecars.SUMMARY), "{}");
            fresh.add(SweepSidecars.SWEEP);
            fresh.add(SweepSidecars.SUMMARY);
            return new Staged(new SweepLayout(plan), fresh, SweepSidecars.SWEEP);
        };
    }

    /** A job run as rounds: two committed rounds (each a sweep's folder with its own _SUCCESS) under its staging. */
    private static Stager rounds() {
        RoundsLayout layout = new RoundsLayout("plan", DEFINITION, NOW, List.of("candidates"), Set.of("summary.txt"),
                List.of("id"), "same");
        return out -> {
            Path staging = out.resolve(OutputDir.STAGING);
            Files.createDirectories(staging);
            DEFINITION.write(staging, NOW);
            List<String> fresh = new ArrayList<>(List.of("candidates/part-0.parquet", "summary.txt", DEFINITION.file()));
            Files.createDirectories(staging.resolve("candidates"));
            Files.writeString(staging.resolve("candidates/part-0.parquet"), "rows");
            Files.writeString(staging.resolve("summary.txt"), "summary");
            for (String round : List.of("01", "02")) {
                Path r = Files.createDirectories(staging.resolve(RoundsLayout.ROUNDS).resolve(round).resolve("cells"));
                Files.writeString(r.resolve("part-0.parquet"), "rows");
                Files.writeString(r.resolveSibling(SweepSidecars.SWEEP), "cells: {}");
                OutputManifest.success(List.of("cells/part-0.parquet", SweepSidecars.SWEEP)).write(r.getParent());
            }
            fresh.addAll(RoundsLayout.roundFiles(staging));
            return new Staged(layout, fresh, DEFINITION.file());
        };
    }

    @Test
    void aSweepCommitCutAnywhereLeavesAFolderTheNextRunUses(@TempDir Path tmp) throws Exception {
        cutEverywhere(tmp, sweep(tmp), false);
    }

    @Test
    void aSweepCommitReplacingEarlierResultsCutAnywhereLeavesAFolderTheNextRunUses(@TempDir Path tmp) throws Exception {
        cutEverywhere(tmp, sweep(tmp), true);
    }

    @Test
    void aPlansCommitCutAnywhereLeavesAFolderTheNextRunUses(@TempDir Path tmp) throws Exception {
        cutEverywhere(tmp, rounds(), false);
    }

    @Test
    void aRoundsSuccessMovesAfterTheFilesItLists(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out");
        Staged s = rounds().stage(out);
        List<String> moves = new ArrayList<>();
        OutputCommit.commit(out.resolve(OutputDir.STAGING), out, s.fresh(), Set.of(), "plan", s.definition(),
                change -> moves.add(change));
        int firstSuccess = moves.indexOf("move rounds/01/_SUCCESS");
        assertTrue(firstSuccess > moves.indexOf("move rounds/02/cells/part-0.parquet"), moves.toString());
        assertTrue(moves.indexOf("move " + DEFINITION.file()) < firstSuccess, moves.toString());
        // the definition goes last but for the marker, which says the leftover is a finished commit's
        assertEquals(List.of("delete " + DEFINITION.file(), "delete " + OutputCommit.COMMITTED, "delete " + OutputDir.STAGING),
                moves.subList(moves.size() - 3, moves.size()));
        assertFalse(Files.exists(out.resolve(OutputDir.STAGING)));
        assertTrue(Files.isRegularFile(out.resolve(DEFINITION.file())));
    }

    /**
     * Cuts the commit after each of its changes in turn (1 .. all of them), each time into a fresh folder, and checks
     * what the next run would make of it.
     */
    private static void cutEverywhere(Path tmp, Stager stager, boolean earlier) throws IOException {
        List<String> whole = commitCutAt(tmp.resolve("whole"), stager, earlier, Integer.MAX_VALUE);
        int success = whole.indexOf("write " + OutputManifest.Marker.SUCCESS.file) + 1;
        assertTrue(success > 5 && whole.size() > success + 5, "the commit's changes: " + whole);
        OutputLayout layout = stager.stage(tmp.resolve("layout")).layout();
        for (int k = 1; k <= whole.size(); k++) {
            Path out = tmp.resolve("cut-" + k);
            commitCutAt(out, stager, earlier, k);
            String at = "cut after " + whole.get(k - 1) + " (change " + k + " of " + whole.size() + ")";
            assertSuccessListsOnlyFilesThatExist(out, at);
            OutputDir.Verdict resume = OutputDir.inspect(out, layout, false, true);
            assertEquals(OutputDir.Mode.FRESH, OutputDir.inspect(out, layout, true, false).mode(), at);
            if (k >= success) {
                assertEquals(OutputDir.Mode.ALREADY_COMPLETE, resume.mode(), at);
                assertEquals(OutputDir.Mode.FRESH, OutputDir.inspect(out, layout, false, false).mode(), at);
                resume.finishCommit();
                assertFalse(Files.exists(out.resolve(OutputDir.STAGING)), at);
                assertTrue(Files.exists(out.resolve(OutputManifest.Marker.SUCCESS.file)), at);
            } else {
                assertEquals(OutputDir.Mode.RESUME, resume.mode(), at);
                if (layout.finished(out.resolve(OutputDir.STAGING)) == 0) { // every round moved: a rerun loses no work
                    assertEquals(OutputDir.Mode.FRESH, OutputDir.inspect(out, layout, false, false).mode(), at);
                    continue;
                }
                OutputDir.RefusedException plain = assertThrows(OutputDir.RefusedException.class,
                        () -> OutputDir.inspect(out, layout, false, false), at);
                assertTrue(plain.getMessage().contains("--resume finishes it"), at + ": " + plain.getMessage());
            }
        }
    }

    /**
     * Stages into {@code out} (after committing once, if {@code earlier}) and commits, cut after change {@code k};
     * returns the changes made.
     */
    private static List<String> commitCutAt(Path out, Stager stager, boolean earlier, int k) throws IOException {
        Set<String> previous = Set.of();
        if (earlier) {
            Staged first = stager.stage(out);
            OutputCommit.commit(out.resolve(OutputDir.STAGING), out, first.fresh(), Set.of(), "test", first.definition());
            previous = Set.copyOf(OutputManifest.read(out, OutputManifest.Marker.SUCCESS).orElseThrow().files());
        }
        Staged s = stager.stage(out);
        List<String> changes = new ArrayList<>();
        try {
            OutputCommit.commit(out.resolve(OutputDir.STAGING), out, s.fresh(), previous, "test", s.definition(), change -> {
                changes.add(change);
                if (changes.size() == k) {
                    throw new Cut();
                }
            });
        } catch (Cut cut) {
            // the process died here
        }
        return changes;
    }

    /** Every _SUCCESS outside the staging folder lists only files that are there. */
    private static void assertSuccessListsOnlyFilesThatExist(Path out, String at) throws IOException {
        try (Stream<Path> walk = Files.walk(out)) {
            for (Path m : walk.filter(p -> p.getFileName().toString().equals(OutputManifest.Marker.SUCCESS.file))
                    .filter(p -> !out.relativize(p).startsWith(OutputDir.STAGING)).toList()) {
                for (String f : OutputManifest.read(m.getParent(), OutputManifest.Marker.SUCCESS).orElseThrow().files()) {
                    assertTrue(Files.exists(m.getParent().resolve(f)), at + ": " + out.relativize(m) + " lists " + f);
                }
            }
        }
    }
}
