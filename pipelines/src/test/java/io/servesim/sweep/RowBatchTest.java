package io.servesim.sweep;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.io.RowFields;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/** A {@link RowBatch} holds whole rows only: a row a failure left half-written never reaches a later batch. */
class RowBatchTest {
    private static final Schema SCHEMA = new Schema.Parser().parse("""
            {"type": "record", "name": "r", "fields": [
              {"name": "id", "type": "long"}, {"name": "status", "type": "string"}]}""");

    private static byte[] oneRow(long id, String status) {
        RowBatch batch = new RowBatch(SCHEMA);
        RowFields row = batch.beginRow();
        row.put("id", id);
        row.put("status", status);
        batch.endRow();
        return batch.take();
    }

    /**
     * A cell fails after setting 1 of a row's 2 fields (its bytes still in the encoder's buffer); the
     * batch is cleared, as RunCellFn does, and the next cell's row is the batch's only content.
     */
    @Test
    void aClearedBatchDropsAHalfWrittenRow() {
        RowBatch batch = new RowBatch(SCHEMA);
        batch.beginRow().put("id", 123_456_789L);
        batch.clear();
        RowFields row = batch.beginRow();
        row.put("id", 7L);
        row.put("status", "completed");
        batch.endRow();
        assertEquals(1, batch.size());
        assertArrayEquals(oneRow(7L, "completed"), batch.take());
    }
}
