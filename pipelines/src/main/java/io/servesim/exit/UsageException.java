package io.servesim.exit;

/**
 * A problem with a command's flags or inputs that the user must fix (a flag that cannot apply, an output
 * path that cannot be written, an input file without a needed column). The message names the flag or
 * file and, where the value is one of a closed set, the valid choices. {@link ErrorReport} turns it into
 * exit code {@link Main#CONFIG_ERROR}.
 */
public class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
