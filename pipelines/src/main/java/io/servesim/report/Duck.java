package io.servesim.report;

import io.servesim.exit.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One in-memory DuckDB connection over a sweep's Parquet datasets: every aggregate the report draws is
 * computed here, so the page holds summaries (one value per axis combination, quantiles instead of request
 * rows) whatever the sweep's size. Read-only: the report never writes into the sweep's folders.
 */
final class Duck implements AutoCloseable {
    /** A quoted Parquet file path in a DuckDB message. */
    private static final Pattern QUOTED_FILE = Pattern.compile("'([^']+\\.parquet)'");

    private final Connection connection;

    Duck() throws SQLException {
        connection = DriverManager.getConnection("jdbc:duckdb:");
    }

    /** DuckDB's {@code read_parquet} of every {@code *.parquet} file in {@code dir}. */
    static String parquet(Path dir) {
        return "read_parquet('" + dir.toAbsolutePath().resolve("*.parquet").toString().replace("'", "''") + "')";
    }

    /** A double-quoted SQL identifier. */
    static String quote(String column) {
        return "\"" + column.replace("\"", "\"\"") + "\"";
    }

    /** Whether {@code dir} holds at least one Parquet file. */
    static boolean hasParquet(Path dir) {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(f -> f.getFileName().toString().endsWith(".parquet"));
        } catch (IOException e) {
            return false;
        }
    }

    /** The column names of the Parquet files in {@code dir} (their schema, read without scanning rows). */
    Set<String> columns(Path dir) throws SQLException {
        Set<String> names = new LinkedHashSet<>();
        for (Object[] row : rows("DESCRIBE SELECT * FROM " + parquet(dir))) {
            names.add((String) row[0]);
        }
        return names;
    }

    /** All rows of {@code sql}, each as its column values (JDBC objects; null for SQL NULL). */
    List<Object[]> rows(String sql) throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                Object[] row = new Object[n];
                for (int i = 0; i < n; i++) {
                    row[i] = rs.getObject(i + 1);
                }
                rows.add(row);
            }
        } catch (SQLException e) {
            throw unreadableFile(e);
        }
        return rows;
    }

    /**
     * A failure DuckDB reports for one file of a dataset (a truncated or foreign file: {@code No magic bytes found at
     * end of file '...'}) as a {@link UsageException} naming the file and DuckDB's reason on one line, without its
     * query and caret lines; any other failure as it came.
     */
    private static SQLException unreadableFile(SQLException e) {
        String first = e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("");
        Matcher file = QUOTED_FILE.matcher(first);
        if (!file.find()) {
            return e;
        }
        String reason = first.replace(" '" + file.group(1) + "'", "").replaceFirst("^[A-Za-z ]+ Error: ", "").strip();
        throw new UsageException(file.group(1) + ": unreadable Parquet file: " + reason
                + " (truncated, or not written by a finished sweep?)");
    }

    /** The single value of a one-row, one-column query. */
    Object value(String sql) throws SQLException {
        List<Object[]> rows = rows(sql);
        return rows.isEmpty() ? null : rows.get(0)[0];
    }

    /** {@code v} as a double, or null when it is null or not finite. */
    static Double number(Object v) {
        if (v instanceof Number n && Double.isFinite(n.doubleValue())) {
            return n.doubleValue();
        }
        return null;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
