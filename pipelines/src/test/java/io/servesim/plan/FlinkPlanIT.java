package io.servesim.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.cli.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
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
            String a = "SELECT * FROM read_parquet('" + direct.resolve(rows) + "')";
            String b = "SELECT * FROM read_parquet('" + flink.resolve(rows) + "')";
            assertEquals(0, count("(" + a + " EXCEPT ALL " + b + ")") + count("(" + b + " EXCEPT ALL " + a + ")"), rows);
        }
    }

    private static long count(String from) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT count(*) FROM " + from)) {
            r.next();
            return r.getLong(1);
        }
    }
}
