package io.servesim.compare;

import io.servesim.sweep.DatasetSchemas;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads simulated per-cell rows (the sweep's {@code cells/*.parquet}: one string column per axis label
 * plus metric columns) into {@link KeyedMetrics}, with DuckDB's {@code read_parquet} over one file or
 * every {@code *.parquet} file of a directory (columns matched by name across files). Axis columns
 * of any type are compared as text; metric columns must hold finite numbers or null (a metric no request
 * qualified for, e.g. the latencies of a cell whose every request was dropped: the key is left out of that
 * metric, see {@link Comparison}). Each problem is a {@link CompareInputException} naming the file, the row
 * (1-based within the file) and the column. The sweep's axis columns (those before {@code seed}, except
 * {@code cell_id}) that are not in {@code --on} and take more than one value are averaged over; they are
 * recorded ({@link KeyedMetrics#averagedAxes()}) so the report can say so.
 */
final class SimCells {
    private static final List<String> DUCKDB_COLUMNS = List.of("filename", "file_row_number");

    private SimCells() {
    }

    static KeyedMetrics read(Path sim, List<String> on, List<String> metrics) throws IOException {
        String from = "read_parquet(" + literal(files(sim)) + ", union_by_name = true, filename = true, "
                + "file_row_number = true)";
        KeyedMetrics out = new KeyedMetrics(sim.toString(), on, metrics);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM " + from)) {
                while (rs.next()) {
                    columns.add(rs.getString("column_name"));
                }
            }
            columns.removeAll(DUCKDB_COLUMNS);
            for (String wanted : concat(on, metrics)) {
                if (!columns.contains(wanted)) {
                    throw new CompareInputException(sim + ": missing column '" + wanted + "' (columns: "
                            + String.join(", ", columns) + ")");
                }
            }
            StringBuilder sql = new StringBuilder("SELECT filename, file_row_number");
            on.forEach(a -> sql.append(", CAST(").append(identifier(a)).append(" AS VARCHAR)"));
            metrics.forEach(m -> sql.append(", ").append(identifier(m)));
            sql.append(" FROM ").append(from).append(" ORDER BY filename, file_row_number");
            try (ResultSet rs = st.executeQuery(sql.toString())) {
                while (rs.next()) {
                    String where = rs.getString(1) + ": row " + (rs.getLong(2) + 1) + ": ";
                    List<String> labels = new ArrayList<>(on.size());
                    for (int a = 0; a < on.size(); a++) {
                        String label = rs.getString(3 + a);
                        if (label == null) {
                            throw new CompareInputException(where + on.get(a) + ": null axis label");
                        }
                        labels.add(label);
                    }
                    double[] values = new double[metrics.size()];
                    for (int m = 0; m < values.length; m++) {
                        Object v = rs.getObject(3 + on.size() + m);
                        if (v == null) {
                            values[m] = Double.NaN;
                            continue;
                        }
                        if (!(v instanceof Number n) || !Double.isFinite(n.doubleValue())) {
                            throw new CompareInputException(where + metrics.get(m) + ": not a finite number: " + v);
                        }
                        values[m] = n.doubleValue();
                    }
                    out.add(labels, values);
                }
            }
            averagedAxes(st, from, columns, on).forEach(out::averagedAxis);
        } catch (SQLException e) {
            // DuckDB's message goes on to echo the query with a caret line: its first line says what is wrong.
            String first = e.getMessage() == null ? "" : e.getMessage().strip().lines().findFirst().orElse("");
            throw new CompareInputException("--sim " + sim + ": not a Parquet file or dataset" + (first.isEmpty() ? "" : ": " + first));
        }
        return out;
    }

    /** Axis columns (before {@code seed}, except {@code cell_id}) not in {@code on} with their distinct value counts, if > 1. */
    private static Map<String, Long> averagedAxes(Statement st, String from, List<String> columns, List<String> on)
            throws SQLException {
        Map<String, Long> averaged = new LinkedHashMap<>();
        int seed = columns.indexOf(DatasetSchemas.SEED);
        for (String axis : columns.subList(0, Math.max(seed, 0))) {
            if (axis.equals(DatasetSchemas.CELL_ID) || on.contains(axis)) {
                continue;
            }
            try (ResultSet rs = st.executeQuery("SELECT count(DISTINCT " + identifier(axis) + ") FROM " + from)) {
                rs.next();
                if (rs.getLong(1) > 1) {
                    averaged.put(axis, rs.getLong(1));
                }
            }
        }
        return averaged;
    }

    /** The file, or the glob of a directory's Parquet files (at least one must exist). */
    private static String files(Path sim) throws IOException {
        if (Files.isRegularFile(sim)) {
            return sim.toString();
        }
        if (!Files.isDirectory(sim)) {
            throw new CompareInputException("--sim " + sim + ": no such file or directory");
        }
        try (DirectoryStream<Path> parquet = Files.newDirectoryStream(sim, "*.parquet")) {
            if (!parquet.iterator().hasNext()) {
                throw new CompareInputException("--sim " + sim + ": no *.parquet files in the directory");
            }
        }
        return sim.resolve("*.parquet").toString();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    private static String identifier(String s) {
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
