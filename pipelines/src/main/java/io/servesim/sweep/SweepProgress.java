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
 *
 * <p>The moment the last cell has run is also when a DirectRunner sweep turns single-threaded (the
 * runner writes the datasets on its one thread), so work the launcher needs next can start then on
 * the idle core: {@code whenAllRan}.
 */
final class SweepProgress implements AutoCloseable {
    private static final Map<String, Run> RUNS = new ConcurrentHashMap<>();

    /** One sweep run's count of finished cells, and what to start when it reaches {@code total}. */
    private record Run(AtomicLong done, int total, Runnable whenAllRan) {
    }

    private final String key;
    private final int total;
    private final PrintStream err;
    private final long startNs = System.nanoTime();
    private final ScheduledExecutorService timer;
    private boolean finishing;

    private SweepProgress(String key, int total, PrintStream err, long periodMs, Runnable whenAllRan) {
        this.key = key;
        this.total = total;
        this.err = err;
        RUNS.put(key, new Run(new AtomicLong(), total, whenAllRan));
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sweep-progress");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::report, periodMs, periodMs, TimeUnit.MILLISECONDS);
    }

    /**
     * Starts reporting every {@code periodMs} for the sweep run {@code key} of {@code total} cells;
     * {@code whenAllRan} runs once, on the thread that finished the last cell, which it must not hold up.
     */
    static SweepProgress start(String key, int total, PrintStream err, long periodMs, Runnable whenAllRan) {
        return new SweepProgress(key, total, err, periodMs, whenAllRan);
    }

    /** Called by the cell function when a cell finished (completed or failed). */
    static void cellDone(String key) {
        Run run = RUNS.get(key);
        if (run != null && run.done().incrementAndGet() == run.total()) {
            run.whenAllRan().run();
        }
    }

    /** Cells counted in this JVM so far. */
    long done() {
        return RUNS.get(key).done().get();
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
