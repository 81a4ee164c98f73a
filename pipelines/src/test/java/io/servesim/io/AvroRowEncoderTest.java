package io.servesim.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

/**
 * {@link AvroRowEncoder} writes the bytes {@code GenericDatumWriter} writes for the same rows held as
 * records (so {@link RowFields} converters give the same rows either way), and refuses a call that
 * does not match the schema's field at its position.
 */
class AvroRowEncoderTest {
    private static final Schema SCHEMA = new Schema.Parser().parse("""
            {"type": "record", "name": "r", "fields": [
              {"name": "id", "type": "long"},
              {"name": "instance", "type": "int"},
              {"name": "itl_us", "type": "double"},
              {"name": "streaming", "type": "boolean"},
              {"name": "status", "type": "string"},
              {"name": "reason", "type": ["null", "string"]},
              {"name": "step", "type": ["string", "null"]}]}""");

    /** A row of each shape: both nullable strings null, both set, negative and large numbers, non-ASCII text. */
    @Test
    void rowsEncodeAsGenericDatumWriterEncodesTheirRecords() throws IOException {
        Object[][] rows = {
            {0L, 0, 0.0, false, "", null, null},
            {-1L, -7, 12.625, true, "completed", "kv-full", "plan"},
            {Long.MAX_VALUE, Integer.MIN_VALUE, -1e300, true, "dropped — äß", "", "步骤"},
        };
        assertEncodesAsRecords(SCHEMA, Arrays.stream(rows).<Consumer<RowFields>>map(v -> row -> set(row, v)).toList());
    }

    /** Each of {@code rows}, set through {@link RowFields}, encodes to the bytes GenericDatumWriter writes for it as a record. */
    private static void assertEncodesAsRecords(Schema schema, List<Consumer<RowFields>> rows) throws IOException {
        ByteArrayOutputStream viaRecords = new ByteArrayOutputStream();
        ByteArrayOutputStream viaFields = new ByteArrayOutputStream();
        GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(schema);
        AvroRowEncoder encoder = new AvroRowEncoder(schema);
        BinaryEncoder a = EncoderFactory.get().binaryEncoder(viaRecords, null);
        BinaryEncoder b = EncoderFactory.get().binaryEncoder(viaFields, null);
        for (Consumer<RowFields> row : rows) {
            GenericRecord record = new GenericData.Record(schema);
            row.accept(RowFields.of(record));
            writer.write(record, a);
            encoder.begin(b);
            row.accept(encoder);
            encoder.end();
        }
        a.flush();
        b.flush();
        assertArrayEquals(viaRecords.toByteArray(), viaFields.toByteArray());
    }

    private static void set(RowFields row, Object[] v) {
        row.put("id", (long) v[0]);
        row.put("instance", (int) v[1]);
        row.put("itl_us", (double) v[2]);
        row.put("streaming", (boolean) v[3]);
        row.put("status", (String) v[4]);
        row.put("reason", (String) v[5]);
        row.put("step", (String) v[6]);
    }

    @Test
    void aCallThatDoesNotMatchTheSchemaIsRefused() {
        assertEquals("r: int field id set where the schema has long field id",
                refused(row -> row.put("id", 3)));
        assertEquals("r: long field instance set where the schema has long field id",
                refused(row -> row.put("instance", 3L)));
        assertEquals("r: row ended after 1 of 7 fields (next: instance)", refused(row -> row.put("id", 3L)));
        assertEquals("r.status cannot be null", refused(row -> {
            row.put("id", 1L);
            row.put("instance", 1);
            row.put("itl_us", 1.0);
            row.put("streaming", true);
            row.put("status", (String) null);
        }));
    }

    /** Names are checked on every row, not only the first. */
    @Test
    void aMisnamedFieldIsRefusedAfterGoodRows() {
        AvroRowEncoder encoder = new AvroRowEncoder(SCHEMA);
        encoder.begin(EncoderFactory.get().binaryEncoder(new ByteArrayOutputStream(), null));
        set(encoder, new Object[] {2L, 1, 0.5, false, "completed", null, null});
        encoder.end();
        encoder.begin(EncoderFactory.get().binaryEncoder(new ByteArrayOutputStream(), null));
        encoder.put("id", 3L);
        encoder.put("instance", 1);
        encoder.put("itl_us", 1.0);
        encoder.put("streaming", true);
        encoder.put("status", "completed");
        assertEquals("r: string field step set where the schema has string field reason",
                assertThrows(IllegalStateException.class, () -> encoder.put("step", "plan")).getMessage());
    }

    private static String refused(Consumer<RowFields> fill) {
        AvroRowEncoder encoder = new AvroRowEncoder(SCHEMA);
        encoder.begin(EncoderFactory.get().binaryEncoder(new ByteArrayOutputStream(), null));
        return assertThrows(RuntimeException.class, () -> {
            fill.accept(encoder);
            encoder.end();
        }).getMessage();
    }

    /** Numbers that may be null (a request's TTFT without a token) encode as GenericDatumWriter does; others refuse it. */
    @Test
    void aNullableNumberEncodesItsNullOrItsValue() throws IOException {
        Schema nullable = new Schema.Parser().parse("""
                {"type": "record", "name": "q", "fields": [
                  {"name": "ttft_us", "type": ["null", "long"]},
                  {"name": "itl_us", "type": ["double", "null"]},
                  {"name": "instance", "type": ["null", "int"]}]}""");
        Consumer<RowFields> absent = row -> {
            row.putNull("ttft_us");
            row.putNull("itl_us");
            row.putNull("instance");
        };
        Consumer<RowFields> present = row -> {
            row.put("ttft_us", 1_500L);
            row.put("itl_us", 12.5);
            row.put("instance", 3);
        };
        assertEncodesAsRecords(nullable, List.of(absent, present));
        assertEquals("r.id cannot be null", refused(row -> row.putNull("id")));
    }

    @Test
    void aSchemaWithOtherTypesIsRefusedWithTheField() {
        Schema nested = new Schema.Parser().parse("""
                {"type": "record", "name": "n", "fields": [{"name": "xs", "type": {"type": "array", "items": "long"}}]}""");
        assertEquals("n.xs: Avro type ARRAY is not supported (long, int, double, boolean, string, or a union of null and one)",
                assertThrows(IllegalArgumentException.class, () -> new AvroRowEncoder(nested)).getMessage());
    }
}
