package io.servesim.sweep;

import io.servesim.io.OutputLock;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What an interrupted sweep (SIGINT, SIGTERM) says on its way out. The JVM runs this hook and then
 * exits with 128 + the signal (130, 143). The hook says "interrupted", how many cells finished, and
 * where they are kept; the datasets of earlier results are untouched (nothing is replaced before
 * the new sweep has succeeded) and {@code _INCOMPLETE} / the staging folder mark the new one as
 * unfinished. If the signal arrives while a finished sweep is being moved into place, the hook
 * waits for that to end (it takes renames only), so the directory is never left half-moved by a
 * Ctrl-C. A crash or {@code kill -9} skips the hook; the markers are the same.
 */
final class InterruptGuard implements AutoCloseable {
    private static final long COMMIT_WAIT_S = 30;

    private final ReentrantLock commit = new ReentrantLock();
    private final Thread hook;
    private volatile boolean committed;
    private volatile boolean done;

    private InterruptGuard(PrintStream err, Path dir, Path staging, boolean earlierResults, String resumeCommand,
                           OutputLock lock) {
        hook = new Thread(() -> {
            if (done) {
                return;
            }
            try {
                report(err, dir, staging, earlierResults, resumeCommand);
            } finally {
                try {
                    lock.close(); // a clean interruption leaves no lock behind for the next writer to report
                } catch (IOException e) {
                    err.println("servesim sweep: could not remove the lock " + dir.resolve(OutputLock.FILE) + ": " + e.getMessage());
                }
            }
        }, "servesim-sweep-interrupted");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    private void report(PrintStream err, Path dir, Path staging, boolean earlierResults, String resumeCommand) {
        try {
            if (!commit.tryLock(COMMIT_WAIT_S, TimeUnit.SECONDS)) {
                err.println("servesim sweep: interrupted while moving results into " + dir
                        + "; its _INCOMPLETE lists the files servesim wrote");
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (committed) {
            err.println("servesim sweep: interrupted after the sweep completed; results are in " + dir);
        } else {
            // at least: cells still running on their (daemon) threads may finish and be kept after this count
            err.println("servesim sweep: interrupted; at least " + Checkpoint.count(staging) + " finished cells are kept in "
                    + staging + (earlierResults ? " (the earlier results in " + dir + " are untouched)" : "")
                    + "; finish it with: " + resumeCommand);
        }
        err.flush();
    }

    /**
     * Installs the hook for a sweep staged in {@code staging} under {@code dir}, which holds a
     * sweep's complete results if {@code earlierResults}.
     */
    static InterruptGuard install(PrintStream err, Path dir, Path staging, boolean earlierResults, String resumeCommand,
                                  OutputLock lock) {
        return new InterruptGuard(err, dir, staging, earlierResults, resumeCommand, lock);
    }

    /** Runs {@code move} (the commit) so that an interruption waits for it to finish. */
    <E extends Exception> void committing(ThrowingRunnable<E> move) throws E {
        commit.lock();
        try {
            move.run();
            committed = true;
        } finally {
            commit.unlock();
        }
    }

    /** A step that may throw {@code E}. */
    interface ThrowingRunnable<E extends Exception> {
        void run() throws E;
    }

    /** The sweep ended (either way) without a signal: the hook is removed. */
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
