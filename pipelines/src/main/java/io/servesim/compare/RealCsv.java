package io.servesim.compare;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads measured rows from a CSV file (RFC 4180: comma-separated, a header line naming the columns,
 * fields optionally in double quotes with {@code ""} for a quote; blank lines skipped) into
 * {@link KeyedMetrics}. The header must hold every {@code --on} and metric column; other columns
 * are ignored. Metric fields must be finite decimal numbers, none negative: every metric column is a count, a time,
 * a rate or a share. Each problem is a
 * {@link CompareInputException} naming {@code file:line:column}.
 */
final class RealCsv {
    private RealCsv() {
    }

    private record Row(int line, List<String> fields) {
    }

    static KeyedMetrics read(Path file, List<String> on, List<String> metrics) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new CompareInputException("--real " + file + ": no such file");
        }
        List<Row> rows = parse(file, Files.readString(file, StandardCharsets.UTF_8));
        if (rows.isEmpty()) {
            throw new CompareInputException(file + ": empty file (expected a header line with the columns "
                    + String.join(", ", on) + ", " + String.join(", ", metrics) + ")");
        }
        List<String> header = rows.get(0).fields().stream().map(String::trim).toList();
        int[] onIndex = columns(file, header, on);
        int[] metricIndex = columns(file, header, metrics);
        KeyedMetrics out = new KeyedMetrics(file.toString(), on, metrics);
        for (Row row : rows.subList(1, rows.size())) {
            if (row.fields().size() != header.size()) {
                throw new CompareInputException(file + ":" + row.line() + ": " + row.fields().size()
                        + " fields, the header has " + header.size());
            }
            List<String> labels = new ArrayList<>(on.size());
            for (int i : onIndex) {
                labels.add(row.fields().get(i));
            }
            double[] values = new double[metrics.size()];
            for (int m = 0; m < values.length; m++) {
                values[m] = number(row.fields().get(metricIndex[m]), file + ":" + row.line() + ":" + metrics.get(m));
            }
            out.add(labels, values, "line " + row.line());
        }
        return out;
    }

    private static int[] columns(Path file, List<String> header, List<String> wanted) {
        int[] index = new int[wanted.size()];
        for (int i = 0; i < index.length; i++) {
            index[i] = header.indexOf(wanted.get(i));
            if (index[i] < 0) {
                throw new CompareInputException(file + ": missing column '" + wanted.get(i) + "' (columns: "
                        + String.join(", ", header) + ")");
            }
        }
        return index;
    }

    private static double number(String field, String where) {
        try {
            double v = Double.parseDouble(field.trim());
            if (v < 0) {
                throw new CompareInputException(where + ": " + field.trim() + " is negative; a measured metric never is"
                        + " (each is a count, a time, a rate or a share)");
            }
            if (Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new CompareInputException(where + ": not a finite number: '" + field + "'");
    }

    /** Splits {@code text} into rows of fields, each with the line it starts on (1-based). */
    private static List<Row> parse(Path file, String text) {
        List<Row> rows = new ArrayList<>();
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        int line = 1;
        int rowLine = 1;
        int start = !text.isEmpty() && text.charAt(0) == '\uFEFF' ? 1 : 0;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    line += c == '\n' ? 1 : 0;
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
            } else if (c == '\n') {
                endRow(rows, fields, field, rowLine);
                fields = new ArrayList<>();
                line++;
                rowLine = line;
            } else if (c != '\r') {
                field.append(c);
            }
        }
        if (quoted) {
            throw new CompareInputException(file + ":" + rowLine + ": unterminated quoted field");
        }
        endRow(rows, fields, field, rowLine);
        return rows;
    }

    private static void endRow(List<Row> rows, List<String> fields, StringBuilder field, int line) {
        fields.add(field.toString());
        field.setLength(0);
        boolean blank = fields.size() == 1 && fields.get(0).isBlank();
        if (!blank) {
            rows.add(new Row(line, fields));
        }
    }
}
