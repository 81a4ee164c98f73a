package io.servesim.compare;

import io.servesim.exit.UsageException;

/**
 * A problem with the inputs or options of {@code servesim compare} that the user must fix: a missing
 * file or column, a value that is not a number, an empty join. The message names the file, the
 * line or row, and the column. As a {@link UsageException} it exits with code 2.
 */
public final class CompareInputException extends UsageException {
    private static final long serialVersionUID = 1L;

    public CompareInputException(String message) {
        super(message);
    }
}
