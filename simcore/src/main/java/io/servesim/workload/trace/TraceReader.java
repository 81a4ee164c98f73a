package io.servesim.workload.trace;

import io.servesim.config.Durations;
import io.servesim.rng.PartitionedRng;
import io.servesim.workload.TraceFormatException;
import io.servesim.workload.WorkloadSettings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Streams a trace file one line at a time (never more than one line in memory) and turns lines
 * into {@link TraceRow}s. A malformed line is reported as {@code file:line: message}
 * ({@link TraceFormatException}); with {@code skipBadLines} it is counted and skipped instead.
 * When timestamps matter (trace mode) they must not decrease; a decreasing one is a bad line (a follow-up turn
 * that gives none is not compared).
 */
public abstract class TraceReader implements AutoCloseable {
    /** How to read. */
    public record Options(boolean skipBadLines, boolean timestampsRequired) {
    }

    /** A malformed line (the reader adds file and line number). */
    protected static final class BadLine extends Exception {
        private static final long serialVersionUID = 1L;

        public BadLine(String message) {
            super(message, null, false, false);
        }
    }

    protected final Path path;
    protected final Options options;
    private final BufferedReader reader;
    private final long contentSalt;
    private long lineNo;
    private long skipped;
    private long lastTimestampUs = Long.MIN_VALUE;
    /** The line {@link #lastTimestampUs} came from. */
    private long lastTimestampLineNo;
    /** The first timestamp a row gave, from which the replay counts arrivals; {@link TraceRow#NO_TIMESTAMP} before. */
    private long firstTimestampUs = TraceRow.NO_TIMESTAMP;

    /** Opens {@code path}; {@code header} (or null for none) must be its first line, ignoring case and spaces. */
    protected TraceReader(Path path, Options options, String header) {
        this.path = path;
        this.options = options;
        this.contentSalt = PartitionedRng.fnv1a64("trace:" + path.getFileName());
        try {
            this.reader = Files.newBufferedReader(path);
            if (header != null) {
                String first = reader.readLine();
                if (first != null && first.startsWith("\uFEFF")) {
                    first = first.substring(1); // a UTF-8 byte-order mark, as spreadsheet programs write CSV
                }
                lineNo = 1;
                if (first == null || !first.strip().replace(" ", "").equalsIgnoreCase(header)) {
                    reader.close();
                    throw new TraceFormatException(path, 1, first == null ? "the file is empty; expected the header '" + header + "'"
                            : "expected header '" + header + "', got '" + first + "'");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + path, e);
        }
    }

    /** The next well-formed row, or null at the end of the file. */
    public TraceRow next() {
        while (true) {
            String line = readLine();
            if (line == null) {
                return null;
            }
            if (line.isBlank()) {
                continue;
            }
            try {
                TraceRow row = parse(line, lineNo);
                checkSimulatedTime(row);
                if (row.outputTokens() < 1) {
                    // as a workload's lengths: vLLM serves max_tokens >= 1, and a request without output has no TTFT
                    throw new BadLine("output length " + row.outputTokens() + ": a request generates at least 1 token");
                }
                // a follow-up turn arrives after its previous turn completes, not at its timestamp: a file that lists
                // a session's turns together orders only the rows that arrive at their timestamps
                if (options.timestampsRequired() && row.timestampUs() != TraceRow.NO_TIMESTAMP && !row.followUp()) {
                    if (row.timestampUs() < lastTimestampUs) {
                        throw new BadLine("timestamp " + row.timestampUs() + " us is before "
                                + (lastTimestampLineNo == lineNo - 1 ? "the previous line's " : "line " + lastTimestampLineNo
                                + "'s (rows other than a session's follow-up turns arrive in file order) ")
                                + lastTimestampUs + " us");
                    }
                    lastTimestampUs = row.timestampUs();
                    lastTimestampLineNo = lineNo;
                }
                return row;
            } catch (BadLine e) {
                if (!options.skipBadLines()) {
                    throw new TraceFormatException(path, lineNo, e.getMessage());
                }
                skipped++;
            }
        }
    }

    /**
     * A row must arrive within {@link Durations#MAX_US} of the trace's first timestamp, and a follow-up's delay be at
     * most that ({@link WorkloadSettings#SIMULATED_TIME}): the replay counts arrivals from the first timestamp on the
     * microsecond clock, which a later one would overflow. Timestamps are never negative, so the span cannot overflow.
     */
    private void checkSimulatedTime(TraceRow row) throws BadLine {
        if (row.timestampUs() != TraceRow.NO_TIMESTAMP) {
            if (firstTimestampUs == TraceRow.NO_TIMESTAMP) {
                firstTimestampUs = row.timestampUs();
            } else if (row.timestampUs() - firstTimestampUs > Durations.MAX_US) {
                throw new BadLine("timestamp " + row.timestampUs() + " us is " + (row.timestampUs() - firstTimestampUs)
                        + " us after the first line's; arrivals must be " + WorkloadSettings.SIMULATED_TIME);
            }
        }
        if (row.delayUs() > Durations.MAX_US) {
            throw new BadLine("delay " + row.delayUs() + " us: must be " + WorkloadSettings.SIMULATED_TIME);
        }
    }

    /** Malformed lines skipped so far. */
    public long skippedLines() {
        return skipped;
    }

    /** Parses one non-blank line. */
    protected abstract TraceRow parse(String line, long lineNo) throws BadLine;

    /** A content id unique to this file and line (for prompts whose content the trace does not give). */
    protected long uniqueContent(long line) {
        return PartitionedRng.mix64(contentSalt ^ PartitionedRng.mix64(line));
    }

    /** The content id of a trace-level block id (e.g. a Mooncake hash_id), salted per file. */
    protected long blockContent(long blockId) {
        return PartitionedRng.mix64(contentSalt + PartitionedRng.mix64(blockId ^ 0x6A09_E667_F3BC_C908L));
    }

    /** Parses a non-negative integer field of a delimited line. */
    protected static long parseLong(String s, String field, long min) throws BadLine {
        try {
            long v = Long.parseLong(s.strip());
            if (v < min) {
                throw new BadLine(field + " must be >= " + min + ", got " + v);
            }
            return v;
        } catch (NumberFormatException e) {
            throw new BadLine(field + " is not an integer: '" + s + "'");
        }
    }

    /** Checks that a token count fits an int. */
    protected static int tokens(long v, String field) throws BadLine {
        if (v > Integer.MAX_VALUE) {
            throw new BadLine(field + " " + v + " is too large");
        }
        return (int) v;
    }

    private String readLine() {
        try {
            String line = reader.readLine();
            if (line != null) {
                lineNo++;
            }
            return line;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + path, e);
        }
    }

    @Override
    public void close() {
        try {
            reader.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
