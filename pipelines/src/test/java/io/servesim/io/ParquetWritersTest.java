package io.servesim.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files opened by {@link ParquetWriters}: read back through DuckDB, and never over a file that exists in CREATE mode. */
class ParquetWritersTest {
    @TempDir
    Path dir;

    private static final Schema SCHEMA = new Schema.Parser().parse("""
            {"type": "record", "name": "t", "fields": [
              {"name": "arrival_us", "type": "long"},
              {"name": "itl_ms", "type": ["null", "double"]},
              {"name": "status", "type": "string"},
              {"name": "instance_id", "type": "int"}]}""");

    /**
     * 1,000 rows: arrival_us 0..999 (sum 499,500), itl_ms i / 2.0 but null for every tenth row (900
     * non-null), two statuses, instances 0..3. DuckDB reads the same values back, and every column
     * chunk is Snappy-compressed.
     */
    @Test
    void rowsReadBackThroughDuckDbSnappyCompressed() throws Exception {
        Path file = dir.resolve("t.parquet");
        try (ParquetWriter<GenericRecord> w = ParquetWriters.open(new LocalOutputFile(file), SCHEMA,
                ParquetFileWriter.Mode.CREATE)) {
            for (int i = 0; i < 1000; i++) {
                GenericRecord r = new GenericData.Record(SCHEMA);
                r.put("arrival_us", (long) i);
                r.put("itl_ms", i % 10 == 0 ? null : i / 2.0);
                r.put("status", i % 2 == 0 ? "completed" : "dropped");
                r.put("instance_id", i % 4);
                w.write(r);
            }
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            ResultSet rs = st.executeQuery("SELECT sum(arrival_us), count(itl_ms), count(DISTINCT status), max(instance_id) FROM '"
                    + file + "'");
            rs.next();
            assertEquals(499_500, rs.getLong(1));
            assertEquals(900, rs.getLong(2));
            assertEquals(2, rs.getLong(3));
            assertEquals(3, rs.getInt(4));
            rs = st.executeQuery("SELECT DISTINCT compression FROM parquet_metadata('" + file + "')");
            rs.next();
            assertEquals("SNAPPY", rs.getString(1));
            assertFalse(rs.next());
        }
    }

    @Test
    void createModeLeavesAnExistingFileAlone() throws Exception {
        Path file = Files.writeString(dir.resolve("mine.parquet"), "not servesim's");
        assertThrows(FileAlreadyExistsException.class,
                () -> ParquetWriters.open(new LocalOutputFile(file), SCHEMA, ParquetFileWriter.Mode.CREATE));
        assertEquals("not servesim's", Files.readString(file));
    }

    /**
     * {@code "parquet.dictionary": false} on a field: its column has no dictionary even where one
     * would pay (3 distinct values in 1,000 rows); the same values in an unmarked column get one.
     */
    @Test
    void aFieldMarkedWithoutDictionaryIsWrittenPlain() throws Exception {
        Schema schema = new Schema.Parser().parse("""
                {"type": "record", "name": "d", "fields": [
                  {"name": "plain_us", "type": "long", "parquet.dictionary": false},
                  {"name": "coded_us", "type": "long"}]}""");
        Path file = dir.resolve("d.parquet");
        try (ParquetWriter<GenericRecord> w = ParquetWriters.open(new LocalOutputFile(file), schema, ParquetFileWriter.Mode.CREATE)) {
            for (int i = 0; i < 1000; i++) {
                GenericRecord r = new GenericData.Record(schema);
                r.put("plain_us", (long) (i % 3));
                r.put("coded_us", (long) (i % 3));
                w.write(r);
            }
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            ResultSet rs = st.executeQuery("SELECT sum(plain_us), sum(coded_us) FROM '" + file + "'");
            rs.next();
            assertEquals(999, rs.getLong(1)); // 333 ones and 333 twos: 333 + 666
            assertEquals(999, rs.getLong(2));
            rs = st.executeQuery("SELECT path_in_schema, encodings LIKE '%DICTIONARY%' FROM parquet_metadata('" + file + "')"
                    + " ORDER BY path_in_schema");
            rs.next();
            assertEquals("coded_us", rs.getString(1));
            assertTrue(rs.getBoolean(2));
            rs.next();
            assertEquals("plain_us", rs.getString(1));
            assertFalse(rs.getBoolean(2));
        }
    }

    @Test
    void aDictionaryPropertyThatIsNotABooleanIsRefusedWithItsField() {
        Schema schema = new Schema.Parser().parse("""
                {"type": "record", "name": "d", "fields": [{"name": "x_us", "type": "long", "parquet.dictionary": "no"}]}""");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ParquetWriters.open(
                new LocalOutputFile(dir.resolve("x.parquet")), schema, ParquetFileWriter.Mode.CREATE));
        assertEquals("d.x_us: parquet.dictionary must be true or false, not no", e.getMessage());
    }
}
