package io.servesim.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.cli.CompareCommand;
import io.servesim.fidelity.MeasuredRequest;
import io.servesim.fidelity.RealRun;
import io.servesim.metrics.Percentiles;
import io.servesim.testing.RepoFiles;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * End to end on real measurements: the vLLM 0.19 run of Llama-3.1-8B on one RTX PRO 6000
 * (sweeps/data/validation/vllm_rtxpro6000_llama31_8b, 300 ShareGPT requests at ~10 req/s) cut
 * into 5-second arrival windows. The queue builds up over the run, so the windows differ: per window
 * the measured TTFT p99 and E2E mean (definitions of {@link MeasuredRequest}, percentile of
 * {@link Percentiles}) are a real CSV, and synthetic simulated cells with known orderings are
 * compared against it.
 */
class CompareCommandTest {
    private static final Path REAL_RUN = RepoFiles.realRun();
    private static final String MODEL = "meta-llama/Llama-3.1-8B";
    private static final double EPS = 1e-9;

    /** Window start (s) -> {TTFT p99 ms, E2E mean ms, requests}. */
    private static final Map<Integer, double[]> WINDOWS = new TreeMap<>();

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeAll
    static void measureWindows() {
        RealRun run = RealRun.read(REAL_RUN);
        long firstUs = run.workload().get(0).timestampUs();
        Map<Integer, List<MeasuredRequest>> byWindow = new TreeMap<>();
        for (int i = 0; i < run.measured().size(); i++) {
            int window = (int) ((run.workload().get(i).timestampUs() - firstUs) / 5_000_000) * 5;
            byWindow.computeIfAbsent(window, w -> new ArrayList<>()).add(run.measured().get(i));
        }
        byWindow.forEach((window, requests) -> WINDOWS.put(window, new double[] {
            Percentiles.of(requests.stream().mapToDouble(MeasuredRequest::ttftMs).toArray()).percentile(99),
            requests.stream().mapToDouble(MeasuredRequest::e2eMs).average().orElseThrow(), requests.size()}));
    }

    private static double ttft(int window) {
        return WINDOWS.get(window)[0];
    }

    private static double e2e(int window) {
        return WINDOWS.get(window)[1];
    }

    private int compare(String... args) {
        CommandLine cl = new CommandLine(new CompareCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    /** The measured windows as CSV: window_start_s, model (quoted), requests, ttft_p99_ms, e2e_mean_ms. */
    private Path realCsv() throws Exception {
        StringBuilder csv = new StringBuilder("window_start_s,model,requests,ttft_p99_ms,e2e_mean_ms\n");
        WINDOWS.forEach((w, v) -> csv.append(String.format(Locale.ROOT, "%d,\"%s\",%d,%.17g,%.17g%n", w, MODEL,
                (int) v[2], v[0], v[1])));
        return Files.writeString(dir.resolve("real.csv"), csv);
    }

    /** Writes cells/part-&lt;seed&gt;.parquet through DuckDB, one file per seed, from rows of SQL VALUES. */
    private Path cells(List<String> seed1, List<String> seed2) throws SQLException {
        Path cellsDir = dir.resolve("cells");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE cells (window_start_s VARCHAR, model VARCHAR, seed BIGINT, ttft_p99_ms DOUBLE, "
                    + "e2e_mean_ms DOUBLE, throughput_rps DOUBLE)");
            int seed = 1;
            for (List<String> rows : List.of(seed1, seed2)) {
                st.execute("DELETE FROM cells");
                st.execute("INSERT INTO cells VALUES " + String.join(", ", rows));
                cellsDir.toFile().mkdirs();
                st.execute("COPY cells TO '" + cellsDir.resolve("part-" + seed++ + ".parquet") + "' (FORMAT parquet)");
            }
        }
        return cellsDir;
    }

    private static String row(String window, int seed, double ttftMs, double e2eMs) {
        return String.format(Locale.ROOT, "('%s', '%s', %d, %.17g, %.17g, 9.5)", window, MODEL, seed, ttftMs, e2eMs);
    }

    /**
     * Simulated windows 0, 5, 10, 15, 20 (labels "0.0", "5.0", ...: they must match the CSV's 0, 5, ...) and
     * 30 (no measurement); measured window 25 has no cell. Per window, seeds 1 and 2 average to:
     * E2E mean = 0.9 x measured (seeds 0.8x and 1.0x); TTFT p99 = measured, except windows 10 and 15 swap values
     * (seeds 0.9x and 1.1x of them).
     */
    private Path standardCells() throws SQLException {
        List<String> seed1 = new ArrayList<>();
        List<String> seed2 = new ArrayList<>();
        for (int w : new int[] {0, 5, 10, 15, 20}) {
            int ttftFrom = w == 10 ? 15 : w == 15 ? 10 : w;
            seed1.add(row(w + ".0", 1, 0.9 * ttft(ttftFrom), 0.8 * e2e(w)));
            seed2.add(row(w + ".0", 2, 1.1 * ttft(ttftFrom), 1.0 * e2e(w)));
        }
        seed1.add(row("30.0", 1, 1, 1));
        seed2.add(row("30.0", 2, 1, 1));
        return cells(seed1, seed2);
    }

    @Test
    void measuredWindowsAreDistinctAndNotInTimeOrder() {
        // Six 5-s windows (0..25 s); TTFT p99 orders them 5 < 0 < 10 < 15 < 20 < 25 and E2E mean 0 < 5 < 10 < 20 < 15:
        // neither is the arrival order, so the rankings below test more than sorting by time.
        assertEquals(List.of(0, 5, 10, 15, 20, 25), List.copyOf(WINDOWS.keySet()));
        assertTrue(ttft(5) < ttft(0) && ttft(0) < ttft(10) && ttft(10) < ttft(15) && ttft(15) < ttft(20), WINDOWS.toString());
        assertTrue(e2e(0) < e2e(5) && e2e(5) < e2e(10) && e2e(10) < e2e(20) && e2e(20) < e2e(15), WINDOWS.toString());
    }

    @Test
    void ranksAndErrorsOnTheJoinedWindows() throws Exception {
        Path cells = standardCells();
        Path real = realCsv();
        int exit = compare("--sim", cells.toString(), "--real", real.toString(), "--on", "window_start_s,model",
                "--metrics", "ttft_p99_ms,e2e_mean_ms");
        assertEquals(0, exit, err.toString());

        // TTFT: measured ranks of windows 0 5 10 15 20 are 2 1 3 4 5; the swap gives 2 1 4 3 5: sum d^2 = 2,
        // rho = 1 - 6 * 2 / (5 * 24) = 0.9; 9 of 10 pairs concordant: tau = 0.8, accuracy 0.9.
        // MAPE: only the swapped windows are off, by |t15 - t10| / t10 and |t10 - t15| / t15, over 5 windows.
        double ttftMape = 100 * (Math.abs(ttft(15) - ttft(10)) / ttft(10) + Math.abs(ttft(10) - ttft(15)) / ttft(15)) / 5;
        // E2E: 0.9 x measured keeps every order: 1, 1, 1; MAPE exactly 10%.
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT metric, keys, sim_rows, real_rows, spearman_rho, kendall_tau_b, "
                     + "pairwise_accuracy, mape_pct, unmatched_sim_keys, unmatched_real_keys, on_columns FROM '"
                     + dir.resolve("compare/compare.parquet") + "' ORDER BY metric DESC")) {
            assertTrue(rs.next());
            assertEquals("ttft_p99_ms", rs.getString("metric"));
            assertEquals(5, rs.getInt("keys"));
            assertEquals(10, rs.getInt("sim_rows"), "5 windows x 2 seeds");
            assertEquals(5, rs.getInt("real_rows"));
            assertEquals(0.9, rs.getDouble("spearman_rho"), EPS);
            assertEquals(0.8, rs.getDouble("kendall_tau_b"), EPS);
            assertEquals(0.9, rs.getDouble("pairwise_accuracy"), EPS);
            assertEquals(ttftMape, rs.getDouble("mape_pct"), 1e-6);
            assertEquals(List.of("window_start_s=30, model=" + MODEL), strings(rs, "unmatched_sim_keys"));
            assertEquals(List.of("window_start_s=25, model=" + MODEL), strings(rs, "unmatched_real_keys"));
            assertEquals(List.of("window_start_s", "model"), strings(rs, "on_columns"));
            assertTrue(rs.next());
            assertEquals("e2e_mean_ms", rs.getString("metric"));
            assertEquals(1.0, rs.getDouble("spearman_rho"), EPS);
            assertEquals(1.0, rs.getDouble("kendall_tau_b"), EPS);
            assertEquals(1.0, rs.getDouble("pairwise_accuracy"), EPS);
            assertEquals(10.0, rs.getDouble("mape_pct"), 1e-6);
            assertFalse(rs.next());
        }
        String table = out.toString();
        assertTrue(table.contains("12 rows, 6 keys (a key's metrics are the mean over its rows, e.g. seeds: up to 2 rows per key)"),
                table);
        assertTrue(table.contains("joined on window_start_s, model: 5 keys; unmatched keys: 1 sim, 1 real"), table);
        assertTrue(table.lines().anyMatch(l -> l.matches(String.format(Locale.ROOT,
                "ttft_p99_ms\\s+5\\s+0\\.9000\\s+0\\.8000\\s+0\\.9000\\s+%.2f", ttftMape))), table);
        assertTrue(table.lines().anyMatch(l -> l.matches("e2e_mean_ms\\s+5\\s+1\\.0000\\s+1\\.0000\\s+1\\.0000\\s+10\\.00")),
                table);
        assertTrue(err.toString().contains("unmatched sim key (no measured row): window_start_s=30, model=" + MODEL), err.toString());
        assertTrue(err.toString().contains("unmatched real key (no simulated cell): window_start_s=25, model=" + MODEL),
                err.toString());
    }

    @Test
    void repeatedMeasuredKeysAreAveragedAndNamedOnStderr() throws Exception {
        Path cells = standardCells();
        Path real = realCsv();
        // line 1 is the header, lines 2-7 the windows 0, 5, 10, 15, 20, 25: window 5 measured again on line 8
        Files.writeString(real, Files.readString(real) + "5,\"" + MODEL + "\",100,1.0,1.0\n");
        assertEquals(0, compare("--sim", cells.toString(), "--real", real.toString(), "--on", "window_start_s,model",
                "--metrics", "ttft_p99_ms"), err.toString());
        assertTrue(err.toString().contains("note: --real " + real + ": 1 of 6 keys have several rows (first: line 3 and line 8:"
                + " window_start_s=5, model=" + MODEL + "); a key's metrics are the mean of its rows"), err.toString());
        assertTrue(out.toString().contains("7 rows, 6 keys (a key's metrics are the mean over its rows, e.g. seeds: up to 2"
                + " rows per key)"), out.toString());
    }

    @Test
    void aRealFileWithOneRowPerKeyHasNoNote() throws Exception {
        assertEquals(0, compare("--sim", standardCells().toString(), "--real", realCsv().toString(), "--on",
                "window_start_s,model", "--metrics", "ttft_p99_ms"), err.toString());
        assertFalse(err.toString().contains("several rows"), err.toString());
    }

    @Test
    void anExistingCompareParquetIsKeptUnlessOverwriteIsGiven() throws Exception {
        Path cells = standardCells();
        Path real = realCsv();
        Path mine = Files.createDirectories(dir.resolve("compare")).resolve("compare.parquet");
        Files.writeString(mine, "mine");
        String[] args = {"--sim", cells.toString(), "--real", real.toString(), "--on", "window_start_s,model", "--metrics",
                "ttft_p99_ms"};
        assertEquals(2, compare(args), err.toString());
        assertTrue(err.toString().contains("--output " + mine + ": exists; servesim replaces an existing file only when told"
                + " to"), err.toString());
        assertEquals("mine", Files.readString(mine), "kept byte for byte");
        assertEquals("", out.toString(), "refused before any work");
        String[] again = Arrays.copyOf(args, args.length + 1);
        again[args.length] = "--overwrite";
        assertEquals(0, compare(again), err.toString());
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM '" + mine + "'")) {
            assertTrue(rs.next());
            assertEquals(1, rs.getInt(1), "replaced by the comparison of one metric");
        }
        try (var files = Files.list(mine.getParent())) {
            assertEquals(List.of(mine), files.toList(), "no staged file left behind");
        }
    }

    private static List<Object> strings(ResultSet rs, String column) throws SQLException {
        return List.of((Object[]) rs.getArray(column).getArray());
    }

    @Test
    void missingColumnsNameTheFileTheColumnAndTheColumnsThere() throws Exception {
        Path cells = standardCells();
        Path real = realCsv();
        assertEquals(2, compare("--sim", cells.toString(), "--real", real.toString(), "--on", "window_start_s",
                "--metrics", "throughput_rps"));
        assertTrue(err.toString().contains(real + ": missing column 'throughput_rps' (columns: window_start_s, model, "
                + "requests, ttft_p99_ms, e2e_mean_ms)"), err.toString());
        assertEquals(2, compare("--sim", cells.toString(), "--real", real.toString(), "--on", "rate",
                "--metrics", "ttft_p99_ms"));
        assertTrue(err.toString().contains(cells + ": missing column 'rate' (columns: window_start_s, model, seed, "
                + "ttft_p99_ms, e2e_mean_ms, throughput_rps)"), err.toString());
    }

    /**
     * A metric is a numeric column of the metric catalog: a name the cells had before the catalog renamed it
     * ({@code events}) is refused naming the new one, a text column or another name listing the valid ones.
     */
    @Test
    void aMetricIsACatalogColumnAndAFormerNameNamesTheNewOne() throws Exception {
        Path cells = standardCells();
        Path real = realCsv();
        assertEquals(2, compare("--sim", cells.toString(), "--real", real.toString(), "--on", "window_start_s",
                "--metrics", "events"));
        assertTrue(err.toString().contains("servesim compare: --metrics: 'events' is now named 'events_processed'"),
                err.toString());
        for (String notAMetric : List.of("latency_model", "speed")) {
            assertEquals(2, compare("--sim", cells.toString(), "--real", real.toString(), "--on", "window_start_s",
                    "--metrics", notAMetric));
            assertTrue(err.toString().contains("--metrics: '" + notAMetric + "' is not a metric column of cells/ (servesim"
                    + " metrics lists them); valid: instances, total_kv_blocks, injected,"), err.toString());
        }
    }

    @Test
    void nonNumericValuesNameFileLineAndColumn() throws Exception {
        Path cells = standardCells();
        Path bad = Files.writeString(dir.resolve("bad.csv"), """
                window_start_s,ttft_p99_ms
                0,410.0

                5,abc
                """);
        assertEquals(2, compare("--sim", cells.toString(), "--real", bad.toString(), "--on", "window_start_s",
                "--metrics", "ttft_p99_ms"));
        assertTrue(err.toString().contains(bad + ":4:ttft_p99_ms: not a finite number: 'abc'"), err.toString());

        Path nanCell = cells(List.of(row("0", 1, 1, 1)), List.of("('5', 'm', 2, 'NaN'::DOUBLE, 1, 1)"));
        assertEquals(2, compare("--sim", nanCell.toString(), "--real", realCsv().toString(), "--on", "window_start_s",
                "--metrics", "ttft_p99_ms"));
        assertTrue(err.toString().contains(nanCell.resolve("part-2.parquet") + ": row 1: ttft_p99_ms: not a finite number: NaN"),
                err.toString());
    }

    @Test
    void aCellWithoutAValueIsNamedAndLeftOutOfThatMetric() throws Exception {
        // window 5's only cell completed no request (every one dropped): its latencies are null, its throughput is not
        Path cells = cells(List.of(row("0", 1, ttft(0), e2e(0)), row("10", 1, ttft(10), e2e(10))),
                List.of("('5', '" + MODEL + "', 2, NULL, NULL, 0)", row("15", 2, ttft(15), e2e(15))));
        int exit = compare("--sim", cells.toString(), "--real", realCsv().toString(), "--on", "window_start_s",
                "--metrics", "ttft_p99_ms");
        assertEquals(0, exit, err.toString());
        assertTrue(err.toString().contains("servesim compare: ttft_p99_ms: sim key window_start_s=5 left out: no value"
                + " (null: no request qualified, e.g. every request of the cell was dropped)"), err.toString());
        // windows 0, 10, 15 remain, in the measured order: rho 1 over n = 3
        assertTrue(out.toString().lines().anyMatch(l -> l.matches("ttft_p99_ms\\s+3\\s+1\\.0000\\s+1\\.0000\\s+1\\.0000\\s+0\\.00")),
                out.toString());
    }

    @Test
    void anAllTiedMeasuredColumnHasNoRankStatistics() throws Exception {
        Path real = Files.writeString(dir.resolve("tied.csv"), "window_start_s,ttft_p99_ms\n0,100\n5,100\n10,100\n");
        Path cells = cells(List.of(row("0", 1, 90, 1), row("5", 1, 100, 1)), List.of(row("10", 2, 110, 1)));
        assertEquals(0, compare("--sim", cells.toString(), "--real", real.toString(), "--on", "window_start_s",
                "--metrics", "ttft_p99_ms"), err.toString());
        // MAPE (10% + 0% + 10%) / 3 stays defined; no ordering to agree with: rho, tau and accuracy are n/a
        assertTrue(out.toString().lines().anyMatch(l -> l.matches("ttft_p99_ms\\s+3\\s+n/a\\s+n/a\\s+n/a\\s+6\\.67")),
                out.toString());
        assertFalse(out.toString().contains("mape_pct of"), out.toString());
    }

    @Test
    void aMeasuredZeroLeavesMapeUndefinedAndSaysWhy() throws Exception {
        Path real = Files.writeString(dir.resolve("zero.csv"), "window_start_s,ttft_p99_ms\n0,0\n5,100\n10,120\n");
        Path cells = cells(List.of(row("0", 1, 90, 1), row("5", 1, 100, 1)), List.of(row("10", 2, 110, 1)));
        assertEquals(0, compare("--sim", cells.toString(), "--real", real.toString(), "--on", "window_start_s",
                "--metrics", "ttft_p99_ms"), err.toString());
        assertTrue(out.toString().contains("mape_pct of ttft_p99_ms is n/a: a measured value is 0, of which a percentage"
                + " error is undefined"), out.toString());
    }

    @Test
    void joiningOnASubsetOfTheAxesSaysWhichWereAveraged() throws Exception {
        Path cellsDir = Files.createDirectory(dir.resolve("axes"));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("COPY (SELECT * FROM (VALUES ('a', '0', 'rr', 'x', 1, 10.0), ('b', '0', 'kv', 'x', 1, 20.0),"
                    + " ('c', '5', 'rr', 'x', 1, 30.0), ('d', '5', 'kv', 'x', 1, 40.0))"
                    + " t(cell_id, window_start_s, routing, model, seed, ttft_p99_ms)) TO '" + cellsDir.resolve("c.parquet")
                    + "' (FORMAT parquet)");
        }
        assertEquals(0, compare("--sim", cellsDir.toString(), "--real", realCsv().toString(), "--on", "window_start_s",
                "--metrics", "ttft_p99_ms"), err.toString());
        assertTrue(out.toString().contains("a key's metrics are the mean over sim axes not in --on: routing (2 values)"),
                out.toString());
    }

    @Test
    void anEmptyJoinListsBothSidesAndFails() throws Exception {
        Path cells = cells(List.of(row("100", 1, 1, 1)), List.of(row("200", 2, 1, 1)));
        Path real = realCsv();
        assertEquals(2, compare("--sim", cells.toString(), "--real", real.toString(), "--on", "window_start_s",
                "--metrics", "ttft_p99_ms", "--output", dir.resolve("out").toString()));
        assertTrue(err.toString().contains("no key is on both sides (" + cells + ": 2 keys, " + real + ": 6 keys, joined on "
                + "window_start_s)"), err.toString());
        assertTrue(err.toString().contains("unmatched sim key (no measured row): window_start_s=100"), err.toString());
        assertFalse(Files.exists(dir.resolve("out")), "nothing written");
    }

    @Test
    void badOptionsExitTwo() throws Exception {
        Path cells = standardCells();
        Path real = realCsv();
        assertEquals(2, compare("--sim", cells.toString(), "--real", real.toString(), "--on", "window_start_s",
                "--metrics", "window_start_s"));
        assertTrue(err.toString().contains("column 'window_start_s' is in both --on and --metrics"), err.toString());
        assertEquals(2, compare("--sim", dir.resolve("nope").toString(), "--real", real.toString(), "--on", "a",
                "--metrics", "ttft_p99_ms"));
        assertTrue(err.toString().contains("--sim " + dir.resolve("nope") + ": no such file or directory"), err.toString());
        assertEquals(2, compare("--real", real.toString(), "--on", "a", "--metrics", "b"));
        assertTrue(err.toString().contains("Missing required option: '--sim=CELLS'"), err.toString());
    }
}
