package io.servesim.latency;

import io.servesim.config.ConfigException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A small comma-separated table with a header line (the profile CSVs: no quoting, no embedded
 * commas). Cells are read by column name; a missing column or a bad number is a
 * {@link ConfigException} naming the file and its 1-based line.
 */
final class ProfileCsv {
    private final String where;
    private final List<String> header;
    private final List<String[]> rows;
    private final int[] lineNumbers;

    private ProfileCsv(String where, List<String> header, List<String[]> rows, int[] lineNumbers) {
        this.where = where;
        this.header = header;
        this.rows = rows;
        this.lineNumbers = lineNumbers;
    }

    static ProfileCsv read(InputStream in, String where) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        String first = reader.readLine();
        if (first == null) {
            throw new ConfigException(where, "empty file; expected a header line");
        }
        List<String> header = Arrays.stream(first.split(",", -1)).map(String::strip).toList();
        List<String[]> rows = new ArrayList<>();
        List<Integer> lines = new ArrayList<>();
        int lineNo = 1;
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            String[] cells = line.split(",", -1);
            if (cells.length != header.size()) {
                throw new ConfigException(where + ":" + lineNo, "expected " + header.size() + " cells (" + first
                        + "), got " + cells.length);
            }
            rows.add(cells);
            lines.add(lineNo);
        }
        return new ProfileCsv(where, header, rows, lines.stream().mapToInt(Integer::intValue).toArray());
    }

    int size() {
        return rows.size();
    }

    boolean hasColumn(String name) {
        return header.contains(name);
    }

    /** Index of required column {@code name}. */
    int column(String name) {
        int i = header.indexOf(name);
        if (i < 0) {
            throw new ConfigException(where, "missing column '" + name + "'; header is " + String.join(",", header));
        }
        return i;
    }

    String text(int row, int column) {
        return rows.get(row)[column].strip();
    }

    /** A finite number >= {@code min}. */
    double number(int row, int column, double min) {
        String s = text(row, column);
        try {
            double v = Double.parseDouble(s);
            if (!Double.isFinite(v) || v < min) {
                throw new ConfigException(where + ":" + lineNumbers[row], header.get(column) + " must be a finite number >= "
                        + min + ", got " + s);
            }
            return v;
        } catch (NumberFormatException e) {
            throw new ConfigException(where + ":" + lineNumbers[row], header.get(column) + " is not a number: '" + s + "'");
        }
    }

    /** An integer >= {@code min}. */
    int integer(int row, int column, int min) {
        double v = number(row, column, min);
        if (v != Math.rint(v) || v > Integer.MAX_VALUE) {
            throw new ConfigException(where + ":" + lineNumbers[row], header.get(column) + " must be an integer, got "
                    + text(row, column));
        }
        return (int) v;
    }

    /** The file, for messages. */
    String file() {
        return where;
    }
}
