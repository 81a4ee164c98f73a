package io.servesim.exit;

/** The exit codes of every {@code servesim} command. */
public final class ExitCode {
    /** The command did what was asked. */
    public static final int OK = 0;
    /** A failure while running (cells failed, a runner failed, an output could not be written). */
    public static final int RUNTIME_ERROR = 1;
    /** A bad configuration, flag or input that the user must fix; nothing ran. */
    public static final int CONFIG_ERROR = 2;
    /**
     * The command ran to the end and wrote its outputs, but its question has no answer: no plan candidate meets every
     * objective (as {@code grep} exits 1 when nothing matches, so a script tells "no" from "yes" without parsing).
     */
    public static final int NO_ANSWER = 3;

    private ExitCode() {
    }
}
