package io.servesim.sweep;

import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Progress of a running sweep on stderr: cells done / total, cells/s and ETA, every few seconds,
 * then one line when every cell has run and the runner is finalizing the datasets.
 * Cells are counted by {@link RunCellFn} in a JVM-local counter keyed by the sweep run, so this
 * sees cells run in the launching JVM: the DirectRunner and the embedded Flink mini cluster. On a
 * remote Flink cluster the workers count in their own JVMs; the launcher then says so and points
 * at the Flink web UI, and reports the final counts from Beam's metrics after the job.
 */
final class SweepProgress implements AutoCloseable {
    /** Finished cells per sweep run. */
    private static final Map<String, AtomicLong> RUNS = new ConcurrentHashMap<>();

    private final AtomicLong done = new AtomicLong();
    private final String key;
    private final int total;
    private final PrintStream err;
    private final long startNs = System.nanoTime();
    private final ScheduledExecutorService timer;
    private boolean finishing;

    private SweepProgress(String key, int total, PrintStream err, long periodMs) {
        this.key = key;
        this.total = total;
        this.err = err;
        RUNS.put(key, done);
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sweep-progress");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::report, periodMs, periodMs, TimeUnit.MILLISECONDS);
    }

    /** Starts reporting every {@code periodMs} for the sweep run {@code key} of {@code total} cells. */
    static SweepProgress start(String key, int total, PrintStream err, long periodMs) {
        return new SweepProgress(key, total, err, periodMs);
    }

    /** Called by the cell function when a cell finished (completed or failed). */
    static void cellDone(String key) {
        AtomicLong run = RUNS.get(key);
        if (run != null) {
            run.incrementAndGet();
        }
    }

    /** Cells counted in this JVM so far. */
    long done() {
        return done.get();
    }

    private void report() {
        long done = done();
        double s = (System.nanoTime() - startNs) / 1e9;
        double rate = done / Math.max(s, 1e-9);
        if (done >= total) {
            // every cell ran; the runner is finalizing files: say so once instead of repeating N/N
            if (!finishing) {
                finishing = true;
                err.printf("sweep: %d/%d cells in %.1f s, %.2f cells/s; writing the datasets ...%n", done, total, s, rate);
            }
            return;
        }
        String eta = done == 0 ? "?" : String.format("%.0f s", (total - done) / rate);
        err.printf("sweep: %d/%d cells, %.2f cells/s, ETA %s%n", done, total, rate, eta);
    }

    @Override
    public void close() {
        timer.shutdownNow();
        RUNS.remove(key);
    }
}
