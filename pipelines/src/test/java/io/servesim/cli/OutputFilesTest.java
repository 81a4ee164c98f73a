package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.sweep.ChildServesim;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files a command writes where its flags say never replace one of the user's without {@code --overwrite}, and an
 * interrupted command leaves them as they were: {@code run}'s per-request files are written under a temporary name
 * and renamed when the run succeeds (a real child process is interrupted mid-write), and a report is never written
 * over an HTML file servesim did not write, by {@code report} or by {@code sweep --report} (checked before any cell
 * runs).
 */
class OutputFilesTest {
    /** A sweep of two cells of 30 requests each. */
    private static final String TINY = """
            name: tiny
            base:
              deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100}
              workload:
                aggregate_rate: 5
                num_requests: 30
                input_distribution: {type: constant, params: {value: 128}}
                output_distribution: {type: constant, params: {value: 16}}
            axes: [{name: rate, path: workload.aggregate_rate, values: [5, 10]}]
            seeds: [1]
            """;

    private static final String CONFIG = Path.of("..", "sweeps", "configs", "llama8b-h100.yaml").toString();

    @Test
    void anExistingRequestsFileIsRefusedWithoutOverwrite(@TempDir Path tmp) throws Exception {
        Path mine = Files.writeString(tmp.resolve("r.csv"), "my rows\n");
        CliRun.Result r = CliRun.exec("run", "-c", CONFIG, "--num-requests", "20", "--requests-out", mine.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--requests-out " + mine + ": exists") && r.err().contains("--overwrite"), r.err());
        assertEquals("my rows\n", Files.readString(mine));
        CliRun.Result replaced = CliRun.exec("run", "-c", CONFIG, "--num-requests", "20", "--requests-out", mine.toString(),
                "--overwrite");
        assertEquals(0, replaced.code(), replaced.err());
        assertEquals(21, Files.readAllLines(mine).size(), "a header and 20 rows");
        assertEquals(0, partials(tmp));
    }

    @Test
    void anInterruptedRunSaysSoAndLeavesTheTargetsAsTheyWere(@TempDir Path tmp) throws Exception {
        Path mine = Files.writeString(tmp.resolve("r.csv"), "my rows\n");
        Path parquet = tmp.resolve("s.parquet");
        try (ChildServesim run = ChildServesim.start(tmp.resolve("run.err"), "run", "-c", CONFIG, "--num-requests", "3000000",
                "--rate", "40", "--requests-out", mine.toString(), "--scaling-out", parquet.toString(), "--overwrite")) {
            run.awaitWhileAlive(() -> partialBytes(tmp) > 100_000, "rows were being written");
            assertEquals(130, run.signal("INT"));
            assertTrue(run.stderr().contains("servesim run: interrupted; nothing was written (" + mine + ", " + parquet
                    + " left as they were)"), run.stderr());
        }
        assertEquals("my rows\n", Files.readString(mine));
        assertFalse(Files.exists(parquet));
        assertEquals(0, partials(tmp), "no temporary file is left behind");
    }

    @Test
    void aReportIsNeverWrittenOverAnHtmlFileServesimDidNotWrite(@TempDir Path tmp) throws Exception {
        Path sweep = Files.writeString(tmp.resolve("tiny.yaml"), TINY);
        Path out = Files.createDirectories(tmp.resolve("out"));
        Path mine = Files.writeString(out.resolve("report.html"), "<html>mine</html>");
        CliRun.Result refused = CliRun.exec("sweep", sweep.toString(), "--output", out.toString(), "--overwrite", "--report");
        assertEquals(2, refused.code(), refused.err());
        assertTrue(refused.err().contains("--report " + mine + ": exists and is not a servesim report"), refused.err());
        assertFalse(Files.exists(out.resolve("cells")), "refused before any cell ran");

        assertEquals(0, CliRun.exec("sweep", sweep.toString(), "--output", out.toString(), "--overwrite").code());
        CliRun.Result report = CliRun.exec("report", out.toString());
        assertEquals(2, report.code(), report.err());
        assertTrue(report.err().contains(mine + ": exists and is not a servesim report") && report.err().contains("--out"),
                report.err());
        assertEquals("<html>mine</html>", Files.readString(mine));

        Path page = tmp.resolve("page.html");
        assertEquals(0, CliRun.exec("report", out.toString(), "--out", page.toString()).code());
        assertEquals(0, CliRun.exec("report", out.toString(), "--out", page.toString()).code(), "its own page is replaced");
        assertEquals(0, partials(tmp));

        // a link (to nothing, or to a page) is never replaced by the page; nor is a page put inside a sweep's folders
        Path dangling = Files.createSymbolicLink(tmp.resolve("link.html"), tmp.resolve("nowhere/report.html"));
        Path toPage = Files.createSymbolicLink(tmp.resolve("page-link.html"), page);
        for (Path link : new Path[] {dangling, toPage}) {
            CliRun.Result r = CliRun.exec("report", out.toString(), "--out", link.toString());
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains("--out " + link + ": a symbolic link"), r.err());
            assertTrue(Files.isSymbolicLink(link));
        }
        Path other = tmp.resolve("other");
        assertEquals(0, CliRun.exec("sweep", sweep.toString(), "--output", other.toString()).code());
        for (String inside : new String[] {"cells/r.html", "_staging/r.html", "anything/r.html"}) {
            CliRun.Result r = CliRun.exec("report", out.toString(), "--out", other.resolve(inside).toString());
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains("inside " + other + ", the output folder of a sweep"), r.err());
        }
        // nor through a link to a folder of it: where an output lands is checked with links resolved
        Path link = Files.createSymbolicLink(tmp.resolve("cl"), other.resolve("cells"));
        CliRun.Result viaLink = CliRun.exec("report", out.toString(), "--out", link.resolve("r.html").toString());
        assertEquals(2, viaLink.code(), viaLink.err());
        assertTrue(viaLink.err().contains("inside " + other.toRealPath() + ", the output folder of a sweep"), viaLink.err());
        CliRun.Result sweepViaLink = CliRun.exec("sweep", sweep.toString(), "--output", link.resolve("x").toString());
        assertEquals(2, sweepViaLink.code(), sweepViaLink.err());
        assertTrue(sweepViaLink.err().contains("the output folder of a sweep"), sweepViaLink.err());
        CliRun.Result rowsViaLink = CliRun.exec("run", "--model", "meta-llama/llama-3.1-8b-instruct", "--hardware", "H100",
                "--num-requests", "5", "--requests-out", link.resolve("rr.parquet").toString());
        assertEquals(2, rowsViaLink.code(), rowsViaLink.err());
        assertEquals(0, CliRun.exec("sweep", sweep.toString(), "--output", other.toString()).code(),
                "the other sweep runs into its folder again");
    }

    /** A sweep replacing results removes the report servesim wrote of them, and only that: it would show the old ones. */
    @Test
    void newResultsRemoveTheReportOfTheOldOnes(@TempDir Path tmp) throws Exception {
        Path sweep = Files.writeString(tmp.resolve("tiny.yaml"), TINY);
        Path out = tmp.resolve("out");
        assertEquals(0, CliRun.exec("sweep", sweep.toString(), "--output", out.toString(), "--report").code());
        Path page = out.resolve("report.html");
        assertTrue(Files.isRegularFile(page));
        Files.writeString(sweep, TINY.replace("values: [5, 10]", "values: [5, 20]"));
        CliRun.Result r = CliRun.exec("sweep", sweep.toString(), "--output", out.toString(), "--overwrite");
        assertEquals(0, r.code(), r.err());
        assertFalse(Files.exists(page), "the page of the replaced results is gone");
        assertTrue(r.err().contains("removed " + page + ", the report of the results this sweep replaced"), r.err());
        Files.writeString(page, "<html>my own page</html>");
        assertEquals(0, CliRun.exec("sweep", sweep.toString(), "--output", out.toString()).code());
        assertEquals("<html>my own page</html>", Files.readString(page), "a page servesim did not write is kept");
    }

    private static long partials(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().contains(".partial")).count();
        }
    }

    private static long partialBytes(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getParent().getFileName().toString().contains(".partial")).mapToLong(p -> p.toFile().length()).sum();
        } catch (IOException e) {
            return 0;
        }
    }
}
