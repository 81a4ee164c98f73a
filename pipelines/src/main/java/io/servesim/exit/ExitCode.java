package io.servesim.exit;

/** The exit codes of every {@code servesim} command. */
public final class ExitCode {
    /** The command did what was asked. */
    public static final int OK = 0;
    /** A failure while running (cells failed, a runner failed, an output could not be written). */
    public static final int RUNTIME_ERROR = 1;
    /** A bad configuration, flag or input that the user must fix; nothing ran. */
    public static final int CONFIG_ERROR = 2;

    private ExitCode() {
    }
}
