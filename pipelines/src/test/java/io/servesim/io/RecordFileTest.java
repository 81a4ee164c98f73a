package io.servesim.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import io.servesim.metrics.Handoff;
import io.servesim.metrics.RequestRecord;
import io.servesim.metrics.SessionRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writes request and session records to Parquet and CSV and reads them back through DuckDB. */
class RecordFileTest {
    @TempDir
    Path dir;

    /**
     * Three records: two completed with TTFT 1,000 and 3,000 us and one dropped without a token (the record's -1, a
     * null in the file), so avg(ttft_us) over all three skips it: (1000 + 3000) / 2 = 2000, the completed ones' mean.
     */
    static final List<RequestRecord> RECORDS = List.of(
            record(0, 0, 1_000, 9_000, RequestRecord.COMPLETED, null),
            record(1, 500, 3_500, 20_500, RequestRecord.COMPLETED, null),
            new RequestRecord(2, 0, "default", "default", "standard", -1, 0, 0.0, true, 9000, 0, 128, 0, 0,
                    700, 700, -1, -1, 700, -1, -1, 0.0, -1, -1, RequestRecord.DROPPED, "too_long, for \"cache\"",
                    false, "observe", 2, 3, 0, 700, -1, -1, new Handoff(0, 1, 800, 900, 5, 10), 0, -1, 0));

    static RequestRecord record(long id, long arrivalUs, long firstTokenUs, long completionUs, String status,
                                String dropReason) {
        return new RequestRecord(id, 0, "chat", "acme", "interactive", 7, 1, 1.5, true, 512, 128, 128, 16, 0,
                arrivalUs, arrivalUs + 10, arrivalUs + 20, firstTokenUs, completionUs, firstTokenUs - arrivalUs,
                completionUs - arrivalUs, (completionUs - firstTokenUs) / 127.0, 20, 10, status, dropReason, false);
    }

    private Path write(String name) throws Exception {
        Path file = dir.resolve("nested").resolve(name);
        try (RecordFile.Requests sink = RecordFile.requests(file)) {
            RECORDS.forEach(sink::accept);
        }
        return file;
    }

    @Test
    void parquetRoundTripsThroughDuckDb() throws Exception {
        Path file = write("requests.parquet");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            ResultSet rs = st.executeQuery("SELECT count(*), avg(ttft_us), count(ttft_us), count(mean_itl_us) FROM '" + file
                    + "'");
            rs.next();
            assertEquals(3, rs.getLong(1));
            assertEquals(2000.0, rs.getDouble(2), 1e-9);
            assertEquals(2, rs.getLong(3), "the dropped request has no TTFT");
            assertEquals(2, rs.getLong(4), "nor an inter-token latency");
            rs = st.executeQuery("SELECT avg(ttft_us), min(mean_itl_us), any_value(client_id) FROM '" + file
                    + "' WHERE status = 'completed'");
            rs.next();
            assertEquals(2000.0, rs.getDouble(1), 1e-9);
            assertEquals(8_000 / 127.0, rs.getDouble(2), 0);
            assertEquals("chat", rs.getString(3));
            rs = st.executeQuery("SELECT drop_reason FROM '" + file + "' ORDER BY request_id");
            rs.next();
            assertNull(rs.getString(1));
            rs.next();
            rs.next();
            assertEquals("too_long, for \"cache\"", rs.getString(1));
            rs = st.executeQuery("SELECT compression FROM parquet_metadata('" + file + "') LIMIT 1");
            rs.next();
            assertEquals("SNAPPY", rs.getString(1));
        }
    }

    @Test
    void csvHasSchemaHeaderAndRoundTripsThroughDuckDb() throws Exception {
        Path file = write("requests.csv");
        String header = Files.readAllLines(file).get(0);
        String expected = String.join(",", Schemas.request().getFields().stream().map(f -> f.name()).toList());
        assertEquals(expected, header);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            ResultSet rs = st.executeQuery("SELECT count(*), avg(ttft_us), max(drop_reason) FROM read_csv('" + file
                    + "', header = true)");
            rs.next();
            assertEquals(3, rs.getLong(1));
            assertEquals(2000.0, rs.getDouble(2), 1e-9);
            assertEquals("too_long, for \"cache\"", rs.getString(3));
        }
    }

    @Test
    void agenticStepFieldsAreNullForPlainRequests() throws Exception {
        Path file = write("requests.parquet");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            ResultSet rs = st.executeQuery("SELECT request_id, step_id, loop_iteration, fan_out_index FROM '" + file
                    + "' ORDER BY request_id");
            rs.next();
            assertNull(rs.getString(2));
            assertNull(rs.getObject(3));
            assertNull(rs.getObject(4));
            rs.next();
            rs.next();
            assertEquals("observe", rs.getString(2));
            assertEquals(2, rs.getInt(3));
            assertEquals(3, rs.getInt(4));
        }
    }

    @Test
    void sessionRecordsRoundTripInParquetAndCsv() throws Exception {
        // one completed react session (80 ms, 7 LLM calls) and one rejected with its reason
        List<SessionRecord> sessions = List.of(
                new SessionRecord(4, "agent", "react", SessionRecord.COMPLETED, null, 1_000, 81_000, 80_000, 10, 7, 3,
                        9_000, 3, 3, 0, 0, 80_000, 95_000, 2_000, 1_000, 1_000 / 80_000.0, 1_500, 400, 208),
                new SessionRecord(5, "agent", "react", SessionRecord.REJECTED, "reason: token-bucket, empty", 2_000,
                        2_000, -1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0.0, 0, 0, 0));
        for (String name : new String[] {"sessions.parquet", "sessions.csv"}) {
            Path file = dir.resolve(name);
            try (RecordFile.Sessions sink = RecordFile.sessions(file)) {
                sessions.forEach(sink::accept);
            }
            String from = name.endsWith(".csv") ? "read_csv('" + file + "', header = true)" : "'" + file + "'";
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
                ResultSet rs = st.executeQuery("SELECT count(*), sum(llm_calls), max(e2e_us), max(queued_fraction),"
                        + " string_agg(status, '|' ORDER BY session_id), max(reason) FROM " + from);
                rs.next();
                assertEquals(2, rs.getLong(1), name);
                assertEquals(7, rs.getLong(2), name);
                assertEquals(80_000, rs.getLong(3), name);
                assertEquals(0.0125, rs.getDouble(4), 1e-12, name);
                assertEquals("completed|rejected", rs.getString(5), name);
                assertEquals("reason: token-bucket, empty", rs.getString(6), name);
            }
        }
        assertEquals("--sessions-out", assertThrows(ConfigException.class,
                () -> RecordFile.sessions(dir.resolve("s.txt"))).problems().get(0).path());
    }

    @Test
    void rejectsUnknownExtensionAndUnwritablePath() throws Exception {
        ConfigException ext = assertThrows(ConfigException.class, () -> RecordFile.requests(dir.resolve("r.json")));
        assertEquals("--requests-out", ext.problems().get(0).path());
        Path notADir = Files.writeString(dir.resolve("plain-file"), "x");
        ConfigException unwritable = assertThrows(ConfigException.class,
                () -> RecordFile.requests(notADir.resolve("r.parquet")));
        assertEquals("--requests-out", unwritable.problems().get(0).path());
        assertTrue(unwritable.getMessage().contains("cannot write"), unwritable.getMessage());
    }
}
