package io.servesim.workload.trace;

import io.servesim.workload.TraceFormatException;
import io.servesim.workload.TraceSpec;

/**
 * A quick check of a trace file before a run or a sweep: its header and first lines are read with the
 * reader the run would use, so a wrong header or a malformed line fails up front as
 * {@code file:line: message} ({@link TraceFormatException}) instead of minutes into a replay. Lines the
 * spec skips ({@code skip_bad_lines}) are skipped here too; lines past the first {@code lines} are not read.
 */
public final class TraceHead {
    /** Lines read by {@code servesim validate} and sweep validation. */
    public static final int DEFAULT_LINES = 100;

    private TraceHead() {
    }

    /**
     * Whether {@code spec}'s file holds no request at all (a CSV or Azure header without rows, an empty Mooncake or
     * vLLM file, or only lines {@code skip_bad_lines} skips): a replay of it would run nothing and report an empty
     * summary. A file that cannot be read or whose first line is malformed is not judged here (the run or
     * {@link #check} reports it).
     */
    public static boolean holdsNoRequests(TraceSpec spec) {
        TraceReader.Options options = new TraceReader.Options(spec.skipBadLines(), spec.mode() == ReplayMode.TRACE);
        try (TraceReader reader = spec.format().open(spec.path(), options)) {
            return reader.next() == null;
        } catch (TraceFormatException | java.io.UncheckedIOException e) {
            return false;
        }
    }

    /**
     * Reads the header and up to {@code lines} request lines of {@code spec}'s file.
     *
     * @throws TraceFormatException for a wrong header or a malformed line, naming the file and line
     * @throws java.io.UncheckedIOException when the file cannot be read
     */
    public static void check(TraceSpec spec, int lines) {
        TraceReader.Options options = new TraceReader.Options(spec.skipBadLines(), spec.mode() == ReplayMode.TRACE);
        try (TraceReader reader = spec.format().open(spec.path(), options)) {
            int read = 0;
            while (read < lines && reader.next() != null) { // next() throws on a malformed line
                read++;
            }
        }
    }
}
