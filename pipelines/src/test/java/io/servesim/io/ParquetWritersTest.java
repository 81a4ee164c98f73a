package io.servesim.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
