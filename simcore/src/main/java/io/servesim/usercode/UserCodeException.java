package io.servesim.usercode;

/**
 * User code failed during a run: it threw, ran over its {@link CallBudget}, or answered outside its contract. The
 * message names the code's owner (config path and source file), the call and, when it threw, the line.
 */
public final class UserCodeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UserCodeException(String message) {
        super(message);
    }

    public UserCodeException(String message, Throwable cause) {
        super(message, cause);
    }

    /** {@code " at FILE:LINE"} for the innermost frame of {@code thrown} in {@code sourceFile}, or empty. */
    static String lineIn(Throwable thrown, String sourceFile) {
        for (StackTraceElement e : thrown.getStackTrace()) {
            if (sourceFile.equals(e.getFileName()) && e.getLineNumber() > 0) {
                return " at " + sourceFile + ":" + e.getLineNumber();
            }
        }
        return "";
    }
}
