package io.servesim.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.sweep.Dataset;
import io.servesim.sweep.DatasetSchemas;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.junit.jupiter.api.Test;

/**
 * {@link EncodedRowWriteSupport} writes, from rows' Avro binary encoding, the very file
 * parquet-avro writes from the same rows held as records: compared byte for byte over every
 * dataset a sweep writes, with random rows that take every shape the schemas allow (null and
 * present optional values, empty and multi-block arrays and maps, nested records, non-ASCII text).
 */
class EncodedRowWriteSupportTest {
    private static final int ROWS = 600;

    @Test
    void everyDatasetIsWrittenByteForByteAsParquetAvroWritesIt() throws IOException {
        for (Map.Entry<Dataset, Schema> e : DatasetSchemas.forAxes(List.of("routing", "load")).entrySet()) {
            Schema schema = e.getValue();
            Random rnd = new Random(e.getKey().ordinal());
            List<GenericRecord> rows = new ArrayList<>();
            for (int i = 0; i < ROWS; i++) {
                rows.add((GenericRecord) random(schema, rnd));
            }
            byte[] fromRecords = viaRecords(schema, rows);
            assertTrue(fromRecords.length > 1000, e.getKey() + " wrote a file");
            assertArrayEquals(fromRecords, viaEncoding(schema, encode(schema, rows, false)), e.getKey()
                    + ": the file differs from parquet-avro's");
            assertArrayEquals(fromRecords, viaEncoding(schema, encode(schema, rows, true)), e.getKey()
                    + " from arrays and maps in several blocks: the file differs from parquet-avro's");
        }
    }

    /**
     * A map's entries stay in their encoded order (parquet-avro, given the record, iterates the
     * record's own map): keys z, a, m written in that order are read back in that order.
     */
    @Test
    void mapEntriesKeepTheirOrder() throws IOException {
        Schema schema = new Schema.Parser().parse("""
                {"type": "record", "name": "m", "fields": [{"name": "signals", "type": {"type": "map", "values": "double"}}]}""");
        GenericRecord row = new GenericData.Record(schema);
        Map<String, Double> signals = new LinkedHashMap<>();
        signals.put("z", 1.0);
        signals.put("a", 2.0);
        signals.put("m", 3.0);
        row.put("signals", signals);
        assertArrayEquals(viaRecords(schema, List.of(row)), viaEncoding(schema, encode(schema, List.of(row), false)));
    }

    /**
     * Optional values with null as either branch of the union (the datasets all put null first):
     * rows with each present or absent give parquet-avro's file.
     */
    @Test
    void optionalValuesWithNullInEitherBranch() throws IOException {
        Schema schema = new Schema.Parser().parse("""
                {"type": "record", "name": "u", "fields": [
                  {"name": "first", "type": ["null", "long"]},
                  {"name": "last", "type": ["string", "null"]},
                  {"name": "values", "type": {"type": "map", "values": ["double", "null"]}}]}""");
        List<GenericRecord> rows = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            GenericRecord r = new GenericData.Record(schema);
            r.put("first", (i & 1) == 0 ? null : (long) i);
            r.put("last", (i & 2) == 0 ? null : "s" + i);
            Map<String, Double> values = new LinkedHashMap<>();
            values.put("a", (i & 4) == 0 ? null : i / 2.0);
            values.put("b", 1.0);
            r.put("values", values);
            rows.add(r);
        }
        assertArrayEquals(viaRecords(schema, rows), viaEncoding(schema, encode(schema, rows, false)));
    }

    @Test
    void schemasItCannotWriteAreRefusedWithTheFieldPath() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new EncodedRowWriteSupport(
                new Schema.Parser().parse("""
                        {"type": "record", "name": "r", "fields": [{"name": "kind", "type":
                          {"type": "enum", "name": "K", "symbols": ["A", "B"]}}]}""")));
        assertEquals("r.kind: Avro type ENUM is not supported (records, arrays, maps, nullable unions, string, int,"
                + " long, double, boolean)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new EncodedRowWriteSupport(new Schema.Parser().parse("""
                {"type": "record", "name": "r", "fields": [{"name": "v", "type": ["int", "string"]}]}""")));
        assertTrue(e.getMessage().startsWith("r.v: only unions of null and one type are supported"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new EncodedRowWriteSupport(new Schema.Parser().parse("""
                {"type": "record", "name": "r", "fields": [{"name": "xs", "type": {"type": "array", "items": ["null", "int"]}}]}""")));
        assertTrue(e.getMessage().startsWith("r.xs: array items may not be nullable"), e.getMessage());
    }

    private static byte[] viaRecords(Schema schema, List<GenericRecord> rows) throws IOException {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        try (ParquetWriter<GenericRecord> w = ParquetWriters.open(new StreamOutputFile(file, "records"), schema,
                ParquetFileWriter.Mode.CREATE)) {
            for (GenericRecord r : rows) {
                w.write(r);
            }
        }
        return file.toByteArray();
    }

    /**
     * The rows as one batch: as {@code RowBatch} encodes them (each array and map one counted block),
     * or {@code blocked}, with arrays and maps cut into blocks of at most 32 bytes, each preceded by
     * a negative count and its size (the datum format's other form).
     */
    private static byte[] encode(Schema schema, List<GenericRecord> rows, boolean blocked) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder enc = blocked ? new EncoderFactory().configureBlockSize(32).blockingBinaryEncoder(bytes, null)
                : EncoderFactory.get().binaryEncoder(bytes, null);
        GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(schema);
        for (GenericRecord r : rows) {
            writer.write(r, enc);
        }
        enc.flush();
        return bytes.toByteArray();
    }

    private static byte[] viaEncoding(Schema schema, byte[] batch) throws IOException {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        try (ParquetWriter<BinaryDecoder> w = ParquetWriters.openEncoded(new StreamOutputFile(file, "encoded"), schema,
                ParquetFileWriter.Mode.CREATE)) {
            BinaryDecoder in = DecoderFactory.get().binaryDecoder(batch, null);
            while (!in.isEnd()) {
                w.write(in);
            }
        }
        return file.toByteArray();
    }

    /** A random value of {@code s}: optional values null a third of the time, arrays and maps of 0-4 items. */
    private static Object random(Schema s, Random rnd) {
        return switch (s.getType()) {
            case RECORD -> {
                GenericRecord r = new GenericData.Record(s);
                s.getFields().forEach(f -> r.put(f.name(), random(f.schema(), rnd)));
                yield r;
            }
            case ARRAY -> {
                List<Object> xs = new ArrayList<>();
                for (int i = rnd.nextInt(5); i > 0; i--) {
                    xs.add(random(s.getElementType(), rnd));
                }
                yield xs;
            }
            case MAP -> {
                Map<String, Object> m = new LinkedHashMap<>();
                for (int i = rnd.nextInt(5); i > 0; i--) {
                    m.put("k" + rnd.nextInt(100), random(s.getValueType(), rnd));
                }
                yield m;
            }
            case UNION -> rnd.nextInt(3) == 0 ? null : random(s.getTypes().get(1), rnd);
            case STRING -> List.of("round-robin", "kv-router", "prefill→decode", "μs", "").get(rnd.nextInt(5)) + rnd.nextInt(50);
            case INT -> rnd.nextInt(1000) - 10;
            case LONG -> rnd.nextLong() >> rnd.nextInt(64);
            case DOUBLE -> rnd.nextDouble() * 1e4;
            case BOOLEAN -> rnd.nextBoolean();
            default -> throw new IllegalArgumentException(s.toString());
        };
    }
}
