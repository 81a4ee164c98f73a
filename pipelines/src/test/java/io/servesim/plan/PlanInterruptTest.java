package io.servesim.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.servesim.cli.Main;
import io.servesim.sweep.ChildServesim;
import io.servesim.sweep.OutputDir;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code servesim plan} child process interrupted with SIGINT after its second round: it says "interrupted" and
 * where its finished rounds are, exits 130 and leaves {@code _INCOMPLETE}, no {@code candidates/}; {@code --resume} reads
 * the finished rounds back, finishes the interrupted one and runs the rest, and writes the rows of an uninterrupted plan
 * (DuckDB {@code EXCEPT ALL} both ways), having run fewer cells.
 */
class PlanInterruptTest {
    @Test
    void sigintKeepsFinishedRoundsAndResumeWritesTheUninterruptedRows(@TempDir Path tmp) throws Exception {
        Path plan = Files.writeString(tmp.resolve("p.yaml"), TestPlans.small("interrupted", 3, 500,
                "{screen_requests: 200, confirm_requests: 400, keep: 2, capacity: {tolerance_rps: 1.5, max_rps: 48}}"));
        Path out = tmp.resolve("out");
        Path staging = out.resolve(OutputDir.STAGING);
        int code;
        String err;
        try (ChildServesim child = ChildServesim.start(tmp.resolve("child.err"), "plan", plan.toString(), "--output",
                out.toString(), "--parallelism", "1")) {
            child.awaitWhileAlive(() -> Files.exists(staging.resolve("rounds/02/_SUCCESS")), "two rounds finished");
            code = child.signal("INT");
            err = child.stderr();
        }
        assertEquals(130, code, err);
        assertTrue(err.contains("servesim plan: interrupted; ") && err.contains(" finished rounds, and the finished cells of"
                + " the round that was running, are kept in " + staging.resolve("rounds")) && err.contains("--resume"), err);
        assertTrue(Files.exists(out.resolve("_INCOMPLETE")));
        assertFalse(Files.exists(out.resolve("candidates")) || Files.exists(out.resolve("_SUCCESS")));

        assertEquals(0, Main.execute("plan", plan.toString(), "--output", out.toString(), "--resume"));
        assertFalse(Files.exists(staging) || Files.exists(out.resolve("_INCOMPLETE")));
        Path whole = tmp.resolve("whole");
        assertEquals(0, Main.execute("plan", plan.toString(), "--output", whole.toString()));
        for (String rows : new String[] {"candidates/*.parquet", "frontier/*.parquet", "rounds/*/cells/*.parquet"}) {
            assertEquals(0, TestPlans.rowsDiffer(out.resolve(rows), whole.resolve(rows)), rows);
        }
        ObjectMapper json = new ObjectMapper();
        long cells = json.readTree(out.resolve("_SUMMARY.json").toFile()).path("cells").asLong();
        long ranAfter = json.readTree(out.resolve("_SUMMARY.json").toFile()).path("cells_run").asLong();
        assertTrue(ranAfter < cells, "the resume ran " + ranAfter + " of the plan's " + cells + " cells");
    }
}
