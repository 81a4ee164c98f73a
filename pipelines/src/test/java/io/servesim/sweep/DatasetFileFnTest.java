package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.io.RowFields;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.beam.sdk.values.KV;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DatasetFileFn}: a bundle's batches become one whole file per dataset, renamed into place
 * only when the bundle finishes; a failed bundle leaves nothing behind.
 */
class DatasetFileFnTest {
    private static final Schema REQUESTS = new Schema.Parser().parse("""
            {"type": "record", "name": "r", "fields": [
              {"name": "id", "type": "long"}, {"name": "status", "type": "string"}]}""");
    private static final Schema CELLS = new Schema.Parser().parse("""
            {"type": "record", "name": "c", "fields": [{"name": "cell_index", "type": "int"}]}""");
    private static final Map<String, String> SCHEMAS = Map.of("requests", REQUESTS.toString(), "cells", CELLS.toString());

    @TempDir
    Path out;

    /** A batch of request rows with ids {@code ids}, each with status "s&lt;id&gt;". */
    private static KV<String, byte[]> requests(long... ids) {
        RowBatch batch = new RowBatch(REQUESTS);
        for (long id : ids) {
            RowFields row = batch.beginRow();
            row.put("id", id);
            row.put("status", "s" + id);
            batch.endRow();
        }
        return KV.of("requests", batch.take());
    }

    private static KV<String, byte[]> cell(int index) {
        RowBatch batch = new RowBatch(CELLS);
        batch.beginRow().put("cell_index", index);
        batch.endRow();
        return KV.of("cells", batch.take());
    }

    /** Writes one bundle of {@code batches} through {@code fn}, as the runner calls it. */
    @SafeVarargs
    private static void bundle(DatasetFileFn fn, KV<String, byte[]>... batches) throws IOException {
        fn.startBundle();
        for (KV<String, byte[]> b : batches) {
            fn.process(b);
        }
        fn.finishBundle();
    }

    /** The file names in a dataset's folder (none if it does not exist). */
    private List<String> files(String dataset) throws IOException {
        if (!Files.isDirectory(out.resolve(dataset))) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(out.resolve(dataset))) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private long scalar(String select, String dataset) throws SQLException {
        return TestSweeps.scalar(select + " FROM " + TestSweeps.glob(out, dataset));
    }

    /**
     * One bundle of 3 request batches (2, 1 and 3 rows) and 2 cell batches: one file per dataset;
     * requests hold 6 rows, ids 1..6 (sum 21), each status matching its id; cells 2 rows (sum 7 + 9 = 16).
     */
    @Test
    void aBundleWritesOneFilePerDataset() throws Exception {
        DatasetFileFn fn = new DatasetFileFn(out, SCHEMAS);
        bundle(fn, requests(1, 2), cell(7), requests(3), requests(4, 5, 6), cell(9));
        assertEquals(1, files("requests").size());
        assertEquals(1, files("cells").size());
        assertTrue(files("requests").get(0).matches("part-[0-9a-f-]{36}\\.parquet"), files("requests").toString());
        assertEquals(6, scalar("SELECT count(*)", "requests"));
        assertEquals(21, scalar("SELECT sum(id)", "requests"));
        assertEquals(6, scalar("SELECT count(*) FILTER (WHERE status = 's' || id)", "requests"));
        assertEquals(16, scalar("SELECT sum(cell_index)", "cells"));
    }

    /** Two bundles: two request files, every row once (ids 1..5, sum 15); a dataset a bundle had no rows of gets no file. */
    @Test
    void eachBundleGetsItsOwnFiles() throws Exception {
        DatasetFileFn fn = new DatasetFileFn(out, SCHEMAS);
        bundle(fn, requests(1, 2));
        bundle(fn, requests(3, 4, 5));
        assertEquals(2, files("requests").size());
        assertEquals(List.of(), files("cells"));
        assertEquals(5, scalar("SELECT count(DISTINCT id)", "requests"));
        assertEquals(15, scalar("SELECT sum(id)", "requests"));
    }

    /**
     * A bundle that fails half-way (a batch cut mid-row) and is torn down, as the runner does: its
     * files are neither renamed into the dataset nor left as temporaries; the earlier bundle's file
     * (ids 1, 2) is untouched.
     */
    @Test
    void aFailedBundleLeavesNoFile() throws Exception {
        DatasetFileFn fn = new DatasetFileFn(out, SCHEMAS);
        bundle(fn, requests(1, 2));
        List<String> before = files("requests");
        byte[] whole = requests(3, 4).getValue();
        byte[] cut = Arrays.copyOf(whole, whole.length - 2);
        fn.startBundle();
        fn.process(requests(5));
        fn.process(cell(1));
        assertThrows(RuntimeException.class, () -> fn.process(KV.of("requests", cut)));
        fn.teardown();
        assertEquals(before, files("requests"));
        assertEquals(List.of(), files("cells"));
        assertEquals(3, scalar("SELECT sum(id)", "requests"));
    }

    @Test
    void rowsOfADatasetTheSweepDoesNotWriteAreRefusedByName() {
        DatasetFileFn fn = new DatasetFileFn(out, SCHEMAS);
        fn.startBundle();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> fn.process(KV.of("sessions", new byte[0])));
        assertTrue(e.getMessage().contains("sessions") && e.getMessage().contains("requests"), e.getMessage());
    }
}
