package io.servesim.io;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Rows written as RFC 4180 CSV: a header of the schema's field names, then one line per row in the
 * same order. Null is an empty field; text with a comma, quote or line break is quoted; doubles use
 * {@link Double#toString} so they read back exactly.
 */
final class CsvRowFile implements RowFile {
    private final BufferedWriter out;
    private final Schema schema;
    private final StringBuilder line = new StringBuilder(256);

    private CsvRowFile(BufferedWriter out, Schema schema) {
        this.out = out;
        this.schema = schema;
    }

    static CsvRowFile open(Path file, Schema schema) throws IOException {
        CsvRowFile csv = new CsvRowFile(Files.newBufferedWriter(file, StandardCharsets.UTF_8), schema);
        for (Schema.Field f : schema.getFields()) {
            csv.line.append(f.pos() == 0 ? "" : ",").append(f.name());
        }
        csv.flushLine();
        return csv;
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public void write(GenericRecord row) throws IOException {
        for (int i = 0, n = schema.getFields().size(); i < n; i++) {
            if (i > 0) {
                line.append(',');
            }
            Object v = row.get(i);
            if (v != null) {
                line.append(escape(v.toString()));
            }
        }
        flushLine();
    }

    private void flushLine() throws IOException {
        out.write(line.append('\n').toString());
        line.setLength(0);
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
