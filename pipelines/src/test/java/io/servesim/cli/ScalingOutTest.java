package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code servesim run --scaling-out}: the replica timeline agrees with the summary, for an autoscaled and a fixed fleet. */
class ScalingOutTest {
    /** The autoscaled base (1 to 4 replicas, threshold policy, 800 requests). */
    static final Path AUTOSCALED = Path.of("src", "test", "resources", "autoscaling", "autoscaled-8b.yaml").toAbsolutePath();

    private static JsonNode run(Path config, Path scalingOut, String... sets) throws Exception {
        ConfigOptions options = new ConfigOptions();
        options.sets = new java.util.ArrayList<>(List.of(sets));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = RunCommand.run(config, null, null, scalingOut, options, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("replica timeline in " + scalingOut));
        return new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8)).get("autoscaling");
    }

    /** Rows; peak held; held integrated over the rows, replica-seconds; the last row's time, seconds. */
    private static double[] timeline(String from) throws SQLException {
        String held = "provisioning_replicas + loading_replicas + warming_replicas + ready_replicas + draining_replicas";
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*), max(held), sum(held * (coalesce(next_us, time_us) - time_us)) / 1e6,"
                     + " max(time_us) / 1e6 FROM (SELECT time_us, " + held + " AS held, lead(time_us) OVER (ORDER BY time_us)"
                     + " AS next_us FROM " + from + ")")) {
            rs.next();
            return new double[] {rs.getLong(1), rs.getLong(2), rs.getDouble(3), rs.getDouble(4)};
        }
    }

    @Test
    void autoscaledTimelineIntegratesToTheSummary(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("out").resolve("scaling.parquet");
        JsonNode summary = run(AUTOSCALED, file);
        assertTrue(summary.get("scale_ups").asLong() > 0 && summary.get("scale_downs").asLong() > 0, summary.toString());
        double[] t = timeline("read_parquet('" + file + "')");
        assertTrue(t[0] > 3, "rows: " + t[0]);
        assertEquals(summary.get("peak_replicas").asInt(), (int) t[1]);
        assertEquals(summary.get("replica_seconds").asDouble(), t[2], 1e-6);
        assertEquals(summary.get("mean_replicas").asDouble(), t[2] / t[3], 1e-9);
    }

    @Test
    void fixedFleetWritesItsInstancesAtStartAndEndAsCsv(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("scaling.csv");
        JsonNode summary = run(AUTOSCALED, file, "autoscaling={}", "policies.autoscale=null", "deployment.instances=3");
        assertEquals(false, summary.get("autoscaling_enabled").asBoolean());
        List<String> lines = Files.readAllLines(file);
        assertEquals("time_us,provisioning_replicas,loading_replicas,warming_replicas,ready_replicas,draining_replicas",
                lines.get(0));
        assertEquals(3, lines.size(), String.join("\n", lines));
        assertEquals("0,0,0,0,3,0", lines.get(1));
        double[] t = timeline("read_csv('" + file + "')");
        assertEquals(summary.get("replica_seconds").asDouble(), t[2], 1e-6);
        assertEquals(3.0, t[2] / t[3], 1e-9);
    }
}
