package io.servesim.compare;

/**
 * A problem with the inputs or options of {@code servesim compare} that the user must fix: a missing
 * file or column, a value that is not a number, an empty join. The message names the file, the
 * line or row, and the column. {@link CompareCommand} turns it into exit code 2.
 */
public final class CompareInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CompareInputException(String message) {
        super(message);
    }
}
