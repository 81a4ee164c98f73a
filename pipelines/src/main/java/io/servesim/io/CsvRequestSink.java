package io.servesim.io;

import io.servesim.metrics.RequestRecord;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;

/**
 * Writes request rows as RFC 4180 CSV: a header of the {@code schemas/request.avsc} field names,
 * then one line per record in the same order. Null is an empty field; text with a comma, quote or
 * line break is quoted; doubles use {@link Double#toString} so they read back exactly.
 */
final class CsvRequestSink implements RecordFileSink {
    private final BufferedWriter out;
    private final Schema schema;
    private final GenericData.Record row;

    private CsvRequestSink(BufferedWriter out, Schema schema) {
        this.out = out;
        this.schema = schema;
        this.row = new GenericData.Record(schema);
    }

    static CsvRequestSink open(Path file) throws IOException {
        Schema schema = Schemas.request();
        CsvRequestSink sink = new CsvRequestSink(Files.newBufferedWriter(file, StandardCharsets.UTF_8), schema);
        StringBuilder header = new StringBuilder();
        for (Schema.Field f : schema.getFields()) {
            header.append(f.pos() == 0 ? "" : ",").append(f.name());
        }
        sink.out.write(header.append('\n').toString());
        return sink;
    }

    @Override
    public void accept(RequestRecord record) {
        RequestRows.fill(row, record);
        StringBuilder line = new StringBuilder(256);
        for (int i = 0; i < schema.getFields().size(); i++) {
            if (i > 0) {
                line.append(',');
            }
            Object v = row.get(i);
            if (v != null) {
                line.append(escape(v.toString()));
            }
        }
        try {
            out.write(line.append('\n').toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String escape(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
