package io.servesim.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.cli.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plan whose rounds run on an embedded Flink mini cluster ({@code --runner flink --flink-master [local]}) asks for the
 * same rounds and writes the same candidates, frontier and round rows as on the DirectRunner. Runs under
 * {@code mvn -Pflink-it verify} (each round starts a Flink job: a few seconds each).
 */
class FlinkPlanIT {
    @Test
    void flinkRoundsGiveTheDirectRunnersPlan(@TempDir Path tmp) throws Exception {
        // H100 and A100-80GB at TP 1 and 2, 1-2 replicas: 8 candidates on one 300-request trace (no halving), a coarse
        // capacity grid (12 req/s): about 4 rounds, each a Flink job
        Path plan = Files.writeString(tmp.resolve("p.yaml"), TestPlans.small("flink-plan", 2, 500,
                "{screen_requests: 300, confirm_requests: 300, keep: 1, capacity: {tolerance_rps: 12, max_rps: 48}}"));
        Path direct = tmp.resolve("direct");
        Path flink = tmp.resolve("flink");
        assertEquals(0, Main.execute("plan", plan.toString(), "--output", direct.toString()));
        assertEquals(0, Main.execute("plan", plan.toString(), "--output", flink.toString(), "--runner", "flink",
                "--flink-master", "[local]", "--parallelism", "2"));
        for (String rows : new String[] {"candidates/*.parquet", "frontier/*.parquet", "rounds/*/cells/*.parquet"}) {
            assertEquals(0, TestPlans.rowsDiffer(direct.resolve(rows), flink.resolve(rows)), rows);
        }
    }
}
