package io.servesim.evolve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.servesim.cli.Main;
import io.servesim.plan.TestPlans;
import io.servesim.sweep.ChildServesim;
import io.servesim.sweep.OutputDir;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code servesim evolve} child process interrupted with SIGINT once its second generation has finished: it
 * exits 130 leaving {@code _INCOMPLETE} and no {@code generations/}; {@code --resume} reads the finished generations
 * back, CMA-ES replays them from their stored fitness, and the search writes the rows of an uninterrupted one (DuckDB
 * {@code EXCEPT ALL} both ways: the same candidates, fitness and best), having run fewer cells.
 */
class EvolveInterruptTest {
    @Test
    void resumedSearchEqualsTheUninterruptedOne(@TempDir Path tmp) throws Exception {
        Path file = Files.writeString(tmp.resolve("e.yaml"), TestSearches.small("interrupted", 4, 3));
        Path out = tmp.resolve("out");
        Path staging = out.resolve(OutputDir.STAGING);
        int code;
        String err;
        try (ChildServesim child = ChildServesim.start(tmp.resolve("child.err"), "evolve", file.toString(), "--output",
                out.toString(), "--parallelism", "1")) {
            child.awaitWhileAlive(() -> Files.exists(staging.resolve("rounds/gen-01/_SUCCESS")), "two generations finished");
            code = child.signal("INT");
            err = child.stderr();
        }
        assertEquals(130, code, err);
        assertTrue(Files.exists(out.resolve("_INCOMPLETE")));
        assertFalse(Files.exists(out.resolve("generations")) || Files.exists(out.resolve("_SUCCESS")));

        assertEquals(0, Main.execute("evolve", file.toString(), "--output", out.toString(), "--resume"));
        Path whole = tmp.resolve("whole");
        assertEquals(0, Main.execute("evolve", file.toString(), "--output", whole.toString()));
        for (String rows : new String[] {"generations/*.parquet", "comparison/*.parquet", "rounds/*/cells/*.parquet"}) {
            assertEquals(0, TestPlans.rowsDiffer(out.resolve(rows), whole.resolve(rows)), rows);
        }
        assertEquals(Files.readString(whole.resolve("best-policy.yaml")), Files.readString(out.resolve("best-policy.yaml")));
        ObjectMapper json = new ObjectMapper();
        long cells = json.readTree(out.resolve("_SUMMARY.json").toFile()).path("cells").asLong();
        long ranAfter = json.readTree(out.resolve("_SUMMARY.json").toFile()).path("cells_run").asLong();
        assertTrue(ranAfter < cells, "the resume ran " + ranAfter + " of the search's " + cells + " cells");
    }
}
