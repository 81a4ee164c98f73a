package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.io.RowFields;
import java.io.IOException;
import java.io.UncheckedIOException;
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

/** {@link DatasetFileFn}: a dataset's batches become exactly one whole file, and a retry replaces it. */
class DatasetFileFnTest {
    private static final Schema SCHEMA = new Schema.Parser().parse("""
            {"type": "record", "name": "r", "fields": [
              {"name": "id", "type": "long"}, {"name": "status", "type": "string"}]}""");
    private static final Map<String, String> SCHEMAS = Map.of("requests", SCHEMA.toString());

    @TempDir
    Path out;

    /** A batch of rows with ids {@code ids}, each with status "s&lt;id&gt;". */
    private static byte[] batch(long... ids) {
        RowBatch batch = new RowBatch(SCHEMA);
        for (long id : ids) {
            RowFields row = batch.beginRow();
            row.put("id", id);
            row.put("status", "s" + id);
            batch.endRow();
        }
        return batch.take();
    }

    private List<String> files() throws IOException {
        try (Stream<Path> s = Files.list(out.resolve("requests"))) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private long scalar(String select) throws SQLException {
        return TestSweeps.scalar(select + " FROM " + TestSweeps.glob(out, "requests"));
    }

    /** Batches of 2, 1 and 3 rows: one file of 6 rows, ids 1..6 (sum 21), status matching id. */
    @Test
    void allBatchesOfADatasetGoIntoOneFile() throws Exception {
        new DatasetFileFn(out, SCHEMAS).process(KV.of("requests", List.of(batch(1, 2), batch(3), batch(4, 5, 6))));
        assertEquals(List.of(DatasetFileFn.FILE), files());
        assertEquals(6, scalar("SELECT count(*)"));
        assertEquals(21, scalar("SELECT sum(id)"));
        assertEquals(6, scalar("SELECT count(*) FILTER (WHERE status = 's' || id)"));
    }

    /** A retried group rewrites the same file: one file, holding the retry's 2 rows only, no temporary file left. */
    @Test
    void aRetryReplacesTheFileInsteadOfAddingOne() throws Exception {
        DatasetFileFn fn = new DatasetFileFn(out, SCHEMAS);
        fn.process(KV.of("requests", List.of(batch(1, 2, 3))));
        fn.process(KV.of("requests", List.of(batch(7), batch(8))));
        assertEquals(List.of(DatasetFileFn.FILE), files());
        assertEquals(2, scalar("SELECT count(*)"));
        assertEquals(15, scalar("SELECT sum(id)"));
    }

    /** A write that fails half-way (a batch cut mid-row) leaves the earlier file as it was and no partial file. */
    @Test
    void aFailedWriteLeavesNoPartialFile() throws Exception {
        DatasetFileFn fn = new DatasetFileFn(out, SCHEMAS);
        fn.process(KV.of("requests", List.of(batch(1, 2))));
        byte[] whole = batch(3, 4);
        byte[] cut = Arrays.copyOf(whole, whole.length - 2);
        assertThrows(UncheckedIOException.class, () -> fn.process(KV.of("requests", List.of(batch(5), cut))));
        assertEquals(List.of(DatasetFileFn.FILE), files());
        assertEquals(3, scalar("SELECT sum(id)"));
    }

    @Test
    void rowsOfADatasetTheSweepDoesNotWriteAreRefusedByName() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new DatasetFileFn(out, SCHEMAS).process(KV.of("sessions", List.of(batch(1)))));
        assertTrue(e.getMessage().contains("sessions") && e.getMessage().contains("requests"), e.getMessage());
    }
}
