package io.servesim.plan;

/**
 * The small plans the tests run (Llama-3.1-8B chat at 12 req/s on H100 and A100-80GB, TP 1 and 2, a few replicas), and
 * how they compare two plans' rows.
 */
public final class TestPlans {
    private TestPlans() {
    }

    /** Rows of the Parquet files {@code a} (a glob) holds that {@code b} does not, and the other way round (EXCEPT ALL). */
    public static long rowsDiffer(java.nio.file.Path a, java.nio.file.Path b) throws java.sql.SQLException {
        String x = "SELECT * FROM read_parquet('" + a + "')";
        String y = "SELECT * FROM read_parquet('" + b + "')";
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:");
             java.sql.Statement s = c.createStatement();
             java.sql.ResultSet r = s.executeQuery("SELECT (SELECT count(*) FROM (" + x + " EXCEPT ALL " + y + "))"
                     + " + (SELECT count(*) FROM (" + y + " EXCEPT ALL " + x + "))")) {
            r.next();
            return r.getLong(1);
        }
    }

    /**
     * A plan named {@code name} of 2 GPUs x TP 1, 2 x 1-{@code maxReplicas} replicas (roofline, least-loaded routing,
     * the chat scenario) at 12 req/s within TTFT p99 {@code ttftP99Ms} and TPOT p90 50 ms, searched as {@code search}
     * (a flow mapping, e.g. {@code {screen_requests: 100, confirm_requests: 300}}).
     */
    public static String small(String name, int maxReplicas, int ttftP99Ms, String search) {
        return "name: " + name + """

                base:
                  deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, latency_model: roofline}
                  engine: {max_num_seqs: 128, max_num_batched_tokens: 2048, block_size: 16}
                  policies: {routing: least-loaded}
                  workload: {scenario: chat, arrival: {process: poisson}}
                target_rate_rps: 12
                """ + "slo: [{ttft_p99_ms: " + ttftP99Ms + "}, {tpot_p90_ms: 50}]\n"
                + "space: {gpus: [H100, A100-80GB], tp: [1, 2], replicas: {min: 1, max: " + maxReplicas + "}}\n"
                + "search: " + search + "\n";
    }
}
