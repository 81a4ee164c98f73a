package io.servesim.sweep;

import io.servesim.cli.SweepCommand;
import io.servesim.exit.ErrorReport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Small sweeps for tests (a few cells of ~100 requests on 2 blackbox instances) and DuckDB helpers. */
final class TestSweeps {
    /** An inline base: 2 x H100 Llama-3.1-8B, 120 Poisson requests of ~256/64 tokens. */
    static final String BASE = """
            base:
              deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1, instances: 2}
              engine: {max_num_seqs: 64, max_num_batched_tokens: 2048, block_size: 16}
              policies: {routing: {name: round-robin}}
              workload:
                aggregate_rate: 20
                num_requests: 120
                input_distribution: {type: gaussian, params: {mean: 256, std_dev: 64, min: 16, max: 1024}}
                output_distribution: {type: gaussian, params: {mean: 64, std_dev: 16, min: 1, max: 256}}
                prefix: {group: system, length: 128}
            """;

    private TestSweeps() {
    }

    /**
     * A 2-cell sweep (round-robin, kv-router) over {@code sweeps/workloads/agentic-mix.yaml} on 2 x H100,
     * cut at {@code horizonUs} of simulated time.
     */
    static Path agenticSweep(Path dir, long horizonUs) throws IOException {
        Path workload = Path.of("..", "sweeps", "workloads", "agentic-mix.yaml").toAbsolutePath().normalize();
        return write(dir, "agents", """
                name: agents
                base:
                  deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, tp: 1, instances: 2}
                  horizon_us: %d
                  workload: %s
                axes: [{name: routing, path: policies.routing.name, values: [round-robin, kv-router]}]
                seeds: [1]
                """.formatted(horizonUs, workload));
    }

    /** Writes {@code name}.yaml with {@code body} (BASE is not added automatically). */
    static Path write(Path dir, String name, String body) throws IOException {
        Path f = dir.resolve(name + ".yaml");
        Files.writeString(f, body);
        return f;
    }

    record Run(int code, String out, String err) {
    }

    /** {@code servesim args...} with its stdout discarded; its exit code. */
    static int quietly(String... args) {
        PrintStream saved = System.out;
        try {
            System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            return io.servesim.cli.Main.execute(args);
        } finally {
            System.setOut(saved);
        }
    }

    static Run run(Path sweep, Path out, RunnerChoice runner) {
        return run(sweep, out, runner, SweepJob.OutputFlags.NONE);
    }

    static Run run(Path sweep, Path out, RunnerChoice runner, SweepJob.OutputFlags flags) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(e, true, StandardCharsets.UTF_8);
        int code = SweepCommand.run(sweep, out, runner, flags, new PrintStream(o, true, StandardCharsets.UTF_8), err,
                new ErrorReport("sweep", err, false));
        return new Run(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }

    static RunnerChoice direct(Integer parallelism) {
        return RunnerChoice.of(RunnerChoice.Runner.direct, parallelism, null, null);
    }

    static String glob(Path out, String dataset) {
        return "read_parquet('" + out.resolve(dataset).toAbsolutePath() + "/*.parquet')";
    }

    static long scalar(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Rows of {@code a} not in {@code b} plus rows of {@code b} not in {@code a} (0 = same multiset of distinct rows). */
    static long symmetricDifference(Path a, Path b, String dataset) throws SQLException {
        String x = glob(a, dataset);
        String y = glob(b, dataset);
        return scalar("SELECT (SELECT count(*) FROM (SELECT * FROM " + x + " EXCEPT ALL SELECT * FROM " + y + "))"
                + " + (SELECT count(*) FROM (SELECT * FROM " + y + " EXCEPT ALL SELECT * FROM " + x + "))");
    }
}
