package io.servesim.sweep;

/**
 * The sweep's pipeline failed (a runner failure, not a cell's: a cell that throws becomes an
 * {@code errors/} row). The message says where the finished cells are kept and how to resume.
 */
public final class SweepFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SweepFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
