package io.servesim.evolve;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.cli.Main;
import io.servesim.plan.TestPlans;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A search whose generations run on an embedded Flink mini cluster ({@code --runner flink --flink-master [local]})
 * proposes the same candidates and writes the same generations, comparison and round rows as on the DirectRunner. Runs
 * under {@code mvn -Pflink-it verify} (each generation starts a Flink job: a few seconds each).
 */
class FlinkEvolveIT {
    @Test
    void flinkGenerationsGiveTheDirectRunnersSearch(@TempDir Path tmp) throws Exception {
        // the start point and 2 generations of 3, then the baselines and the held-out round: 5 Flink jobs
        Path file = Files.writeString(tmp.resolve("e.yaml"), TestSearches.small("flink-evolve", 2, 1));
        Path direct = tmp.resolve("direct");
        Path flink = tmp.resolve("flink");
        assertEquals(0, Main.execute("evolve", file.toString(), "--output", direct.toString()));
        assertEquals(0, Main.execute("evolve", file.toString(), "--output", flink.toString(), "--runner", "flink",
                "--flink-master", "[local]", "--parallelism", "2"));
        for (String rows : new String[] {"generations/*.parquet", "comparison/*.parquet", "rounds/*/cells/*.parquet"}) {
            assertEquals(0, TestPlans.rowsDiffer(direct.resolve(rows), flink.resolve(rows)), rows);
        }
    }
}
