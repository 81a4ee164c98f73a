package io.servesim.workload;

import java.nio.file.Path;

/** A malformed trace line, reported with its file and 1-based line number. */
public final class TraceFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TraceFormatException(Path file, long line, String message) {
        super(file + ":" + line + ": " + message);
    }
}
