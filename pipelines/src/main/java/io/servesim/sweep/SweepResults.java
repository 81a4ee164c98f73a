package io.servesim.sweep;

import io.servesim.metrics.CellMetrics;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Reads a finished sweep's Parquet back through DuckDB: rows per dataset, and the result table
 * (one row per axis combination, means over seeds) the CLI prints. Reading the written files, not
 * in-memory results, means the table shows exactly what a notebook will see.
 */
final class SweepResults {
    /** The table's metric columns and their headings, combined over seeds as the catalog says. */
    private static final Map<String, String> TABLE = tableColumns();
    private SweepResults() {
    }

    /**
     * Loads DuckDB on a daemon thread: its JDBC driver first copies its native library (tens of MB)
     * out of the jar and loads it, ~0.4 s on this machine, which {@link #rowCounts} and
     * {@link #table} otherwise wait for after the pipeline. A failure here is left for those calls to
     * report.
     */
    static void preloadDuckDb() {
        Thread t = new Thread(() -> {
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
                c.isValid(0);
            } catch (SQLException e) {
                // rowCounts and table open their own connections and report what fails
            }
        }, "servesim-duckdb-preload");
        t.setDaemon(true);
        t.start();
    }

    /** DuckDB's glob over a dataset's Parquet files. */
    static String glob(Path outDir, Dataset d) {
        return "'" + outDir.toAbsolutePath().resolve(d.directory()).resolve("*.parquet").toString().replace("'", "''") + "'";
    }

    /** Rows in each written dataset. */
    static Map<Dataset, Long> rowCounts(Path outDir, List<Dataset> written) throws SQLException {
        Map<Dataset, Long> counts = new EnumMap<>(Dataset.class);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            for (Dataset d : written) {
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM read_parquet(" + glob(outDir, d) + ")")) {
                    rs.next();
                    counts.put(d, rs.getLong(1));
                }
            }
        }
        return counts;
    }

    /** The result table: per axis combination, TTFT/E2E p99, throughput and SLO attainment, over seeds. */
    static String table(Path outDir, List<String> axes) throws SQLException {
        String cols = axes.stream().map(a -> "\"" + a + "\"").collect(Collectors.joining(", "));
        StringBuilder metrics = new StringBuilder();
        TABLE.forEach((column, label) -> metrics.append(", ").append(CellMetrics.get(column).aggregation().sql(column))
                .append(" AS ").append(label));
        String sql = "SELECT " + cols + ", count(*) AS seeds" + metrics + " FROM read_parquet(" + glob(outDir, Dataset.CELLS)
                + ") GROUP BY " + cols + " ORDER BY min(cell_index)";
        List<String[]> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            String[] header = new String[n];
            for (int i = 0; i < n; i++) {
                header[i] = rs.getMetaData().getColumnLabel(i + 1);
            }
            rows.add(header);
            while (rs.next()) {
                String[] row = new String[n];
                for (int i = 0; i < n; i++) {
                    Object v = rs.getObject(i + 1);
                    row[i] = v == null ? "-" : v instanceof Double d ? format(header[i], d) : v.toString();
                }
                rows.add(row);
            }
        }
        return render(rows, axes.size());
    }

    private static Map<String, String> tableColumns() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("ttft_p99_ms", "ttft_p99_ms");
        m.put("e2e_p99_ms", "e2e_p99_ms");
        m.put("throughput_rps", "throughput_rps");
        m.put("output_tokens_per_s", "output_tok_per_s");
        m.put("slo_attainment", "slo_attainment");
        return m;
    }

    private static String format(String column, double v) {
        return column.equals("slo_attainment") ? String.format("%.3f", v) : String.format("%.1f", v);
    }

    /** Axis columns left-aligned, numbers right-aligned. */
    private static String render(List<String[]> rows, int textColumns) {
        int n = rows.get(0).length;
        int[] width = new int[n];
        rows.forEach(r -> {
            for (int i = 0; i < n; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        });
        StringBuilder sb = new StringBuilder();
        for (String[] r : rows) {
            for (int i = 0; i < n; i++) {
                String fmt = "%" + (i < textColumns ? "-" : "") + width[i] + "s";
                sb.append(i == 0 ? "" : "  ").append(String.format(fmt, r[i]));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
