package io.servesim.sweep;

import io.servesim.io.OutputLock;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * What interrupted work (a sweep, a capacity plan; SIGINT, SIGTERM) says on its way out. The JVM runs this hook and
 * then exits with 128 + the signal (130, 143). The hook says "interrupted", what finished and where it is kept; the
 * earlier results are untouched (nothing is replaced before the new work has succeeded) and {@code _INCOMPLETE} / the
 * staging folder mark the new one as unfinished. If the signal arrives while finished work is being moved into place,
 * the hook waits for that to end (it takes renames only), so the directory is never left half-moved by a Ctrl-C. A
 * crash or {@code kill -9} skips the hook; the markers are the same. A guard installed {@code silent} (a round of a
 * plan, whose own guard reports) only waits for its commit and releases its lock.
 */
public final class InterruptGuard implements AutoCloseable {
    private static final long COMMIT_WAIT_S = 30;

    private final ReentrantLock commit = new ReentrantLock();
    private final Thread hook;
    private volatile boolean committed;
    private volatile boolean done;

    private InterruptGuard(PrintStream err, String noun, Path dir, Supplier<String> kept, boolean earlierResults,
                           String resumeCommand, OutputLock lock, boolean silent) {
        hook = new Thread(() -> {
            if (done) {
                return;
            }
            try {
                report(silent ? new PrintStream(OutputStream.nullOutputStream()) : err, noun, dir, kept, earlierResults,
                        resumeCommand);
            } finally {
                try {
                    lock.close(); // a clean interruption leaves no lock behind for the next writer to report
                } catch (IOException e) {
                    err.println("servesim " + noun + ": could not remove the lock " + dir.resolve(OutputLock.FILE) + ": "
                            + e.getMessage());
                }
            }
        }, "servesim-" + noun + "-interrupted");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    private void report(PrintStream err, String noun, Path dir, Supplier<String> kept, boolean earlierResults,
                        String resumeCommand) {
        try {
            if (!commit.tryLock(COMMIT_WAIT_S, TimeUnit.SECONDS)) {
                err.println("servesim " + noun + ": interrupted while moving results into " + dir
                        + "; its _INCOMPLETE lists the files servesim wrote");
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (committed) {
            err.println("servesim " + noun + ": interrupted after the " + noun + " completed; results are in " + dir);
        } else {
            err.println("servesim " + noun + ": interrupted; " + kept.get()
                    + (earlierResults ? " (the earlier results in " + dir + " are untouched)" : "")
                    + "; finish it with: " + resumeCommand);
        }
        err.flush();
    }

    /**
     * Installs the hook for work of kind {@code noun} staged under {@code dir}, which holds complete results if
     * {@code earlierResults}; {@code kept} says, when the signal comes, what finished and where it is kept.
     */
    public static InterruptGuard install(PrintStream err, String noun, Path dir, Supplier<String> kept, boolean earlierResults,
                                         String resumeCommand, OutputLock lock, boolean silent) {
        return new InterruptGuard(err, noun, dir, kept, earlierResults, resumeCommand, lock, silent);
    }

    /** Runs {@code move} (the commit) so that an interruption waits for it to finish. */
    public <E extends Exception> void committing(ThrowingRunnable<E> move) throws E {
        commit.lock();
        try {
            move.run();
            committed = true;
        } finally {
            commit.unlock();
        }
    }

    /** A step that may throw {@code E}. */
    public interface ThrowingRunnable<E extends Exception> {
        void run() throws E;
    }

    /** The work ended (either way) without a signal: the hook is removed. */
    @Override
    public void close() {
        done = true;
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is already exiting: the hook sees done and stays silent
        }
    }
}
