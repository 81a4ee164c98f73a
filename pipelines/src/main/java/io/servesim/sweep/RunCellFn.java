package io.servesim.sweep;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.avro.Schema;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.KV;
import org.joda.time.Instant;

/**
 * Thin Beam adapter over {@link CellRunner}: one kernel run per cell, emitting per written
 * {@link Dataset} one encoded {@link RowBatch} keyed by the dataset's directory. A cell that throws
 * or exhausts memory (in the kernel or while its rows are built) emits only an {@code errors} row;
 * its other rows are dropped with it. A finished cell's batches are also kept in its
 * {@link Checkpoint} file before they are emitted, so an interrupted sweep can resume; that file
 * is keyed by cell id and rewritten whole by a retried bundle, and the dataset files keep one
 * attempt's output (FileIO's finalization on Flink; the DirectRunner never retries, and
 * {@link DatasetFileFn} renames a bundle's files into place only once it has finished), so retries
 * never duplicate rows.
 *
 * <p>With {@code cellThreads} 1 (Flink, whose workers are its parallelism) each cell runs as it
 * arrives. With more (the DirectRunner, which runs on one thread: {@link RunnerChoice#options})
 * a bundle's cells are collected and run at the bundle's end on that many threads of this DoFn's
 * own (the JVM's very first cell alone: {@link #KERNEL_COMPILED}); each thread has its own row
 * batches, and the finished cells are emitted (and counted) on the bundle's thread as they
 * complete, since Beam's output and metrics belong to it.
 */
final class RunCellFn extends DoFn<Cell, KV<String, byte[]>> {
    private static final long serialVersionUID = 2L;

    /**
     * Whether a cell has run in this JVM. The first runs alone: the optimizing compiler then compiles
     * the kernel on the other core while one cell runs it, where two cold cells side by side left it
     * no core and ran the interpreted and profiled code for longer. Quickstart sweep (12 cells, 2
     * threads): 3.66 -> 3.59 s and 3.59 -> 3.54 s, CPU 6.12 -> 5.95 s and 6.04 -> 5.90 s (two rounds of 8
     * alternating runs); the 200-cell sweep unchanged.
     */
    private static final AtomicBoolean KERNEL_COMPILED = new AtomicBoolean();

    /** Beam metric namespace of the counters below. */
    static final String METRICS = "servesim.sweep";

    private final List<String> axes;
    private final SweepOutputs outputs;
    private final String progressKey;
    private final String checkpointDir;
    private final int cellThreads;
    private final Counter completed = Metrics.counter(METRICS, "cells_completed");
    private final Counter failed = Metrics.counter(METRICS, "cells_failed");
    private transient Map<Dataset, Schema> schemas;
    private transient ThreadLocal<Map<Dataset, RowBatch>> batches;
    private transient List<Pending> pending;

    /** A cell waiting for the bundle's end, with the timestamp and window its rows are emitted in. */
    private record Pending(Cell cell, Instant timestamp, BoundedWindow window) {
    }

    /**
     * One ran cell: its batches (only an {@code errors} batch if it failed).
     *
     * @param batches (dataset directory, encoded rows) per dataset with rows
     * @param failed  whether the cell threw
     */
    private record Ran(List<KV<String, byte[]>> batches, boolean failed) {
    }

    /**
     * {@code axes}: the sweep's axis names, from which each worker rebuilds the dataset schemas;
     * {@code checkpointDir}: where finished cells' rows are kept ({@link Checkpoint});
     * {@code cellThreads}: threads a bundle's cells run on (1: each as it arrives).
     */
    RunCellFn(List<String> axes, SweepOutputs outputs, String progressKey, Path checkpointDir, int cellThreads) {
        this.axes = List.copyOf(axes);
        this.outputs = outputs;
        this.progressKey = progressKey;
        this.checkpointDir = checkpointDir.toString();
        this.cellThreads = cellThreads;
    }

    @Setup
    public void setup() {
        schemas = DatasetSchemas.forAxes(axes);
        batches = ThreadLocal.withInitial(() -> {
            Map<Dataset, RowBatch> m = new EnumMap<>(Dataset.class);
            schemas.forEach((d, schema) -> m.put(d, new RowBatch(schema)));
            return m;
        });
        pending = new ArrayList<>();
    }

    @ProcessElement
    public void process(@Element Cell cell, @Timestamp Instant timestamp, BoundedWindow window,
                        OutputReceiver<KV<String, byte[]>> out) {
        if (cellThreads > 1) {
            pending.add(new Pending(cell, timestamp, window));
            return;
        }
        Ran ran = run(cell);
        ran.batches().forEach(out::output);
        count(ran);
    }

    @FinishBundle
    public void finishBundle(FinishBundleContext context) throws InterruptedException {
        if (pending.isEmpty()) {
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(cellThreads, pending.size()), r -> {
            Thread t = new Thread(r, "servesim-cell");
            t.setDaemon(true); // an interrupted sweep exits without waiting for running cells
            return t;
        });
        try {
            CompletionService<Ran> done = new ExecutorCompletionService<>(pool);
            Map<Future<Ran>, Pending> byFuture = new HashMap<>();
            // the JVM's first cell runs alone (see KERNEL_COMPILED), the others once it is done
            int solo = KERNEL_COMPILED.getAndSet(true) ? 0 : 1;
            for (Pending p : pending.subList(0, solo == 1 ? 1 : pending.size())) {
                byFuture.put(done.submit(() -> run(p.cell())), p);
            }
            for (int i = 0; i < pending.size(); i++) {
                Future<Ran> f = done.take();
                if (i == 0 && solo == 1) {
                    for (Pending p : pending.subList(1, pending.size())) {
                        byFuture.put(done.submit(() -> run(p.cell())), p);
                    }
                }
                Pending p = byFuture.get(f);
                Ran ran;
                try {
                    ran = f.get();
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                }
                ran.batches().forEach(b -> context.output(b, p.timestamp(), p.window()));
                count(ran);
            }
        } finally {
            pool.shutdownNow();
            pending.clear();
        }
    }

    private void count(Ran ran) {
        (ran.failed() ? failed : completed).inc();
    }

    /** Runs one cell on this thread's batches; a finished cell is checkpointed before it returns. */
    private Ran run(Cell cell) {
        Map<Dataset, RowBatch> mine = batches.get();
        try {
            CellRunner.Outcome outcome = CellRunner.run(cell, outputs);
            Schema sessions = schemas.get(Dataset.SESSIONS);
            Schema decisions = schemas.get(Dataset.DECISIONS);
            RowBatch requestRows = mine.get(Dataset.REQUESTS);
            outcome.requests().forEach(r -> SweepRows.request(requestRows, cell, r));
            outcome.sessions().forEach(s -> mine.get(Dataset.SESSIONS).add(SweepRows.session(sessions, cell, s)));
            outcome.decisions().forEach(d -> mine.get(Dataset.DECISIONS).add(SweepRows.decision(decisions, cell, d)));
            Schema scaling = schemas.get(Dataset.SCALING);
            outcome.scaling().forEach(c -> mine.get(Dataset.SCALING).add(SweepRows.scaling(scaling, cell, c)));
            mine.get(Dataset.CELLS).add(SweepRows.cell(schemas.get(Dataset.CELLS), cell, outcome.summary()));
        } catch (RuntimeException | AssertionError | StackOverflowError | OutOfMemoryError e) {
            mine.values().forEach(RowBatch::clear); // a cell's rows go out whole or not at all
            mine.get(Dataset.ERRORS).add(SweepRows.error(schemas.get(Dataset.ERRORS), cell, e));
            SweepProgress.cellDone(progressKey);
            return new Ran(take(mine), true);
        }
        List<KV<String, byte[]>> finished = take(mine);
        try {
            Checkpoint.write(Path.of(checkpointDir), cell.cellId(), finished);
        } catch (IOException e) {
            throw new UncheckedIOException("keeping the rows of cell " + cell.cellId() + " in " + checkpointDir, e);
        }
        SweepProgress.cellDone(progressKey);
        return new Ran(finished, false);
    }

    /** The batches with rows (only written datasets ever have any: see {@link CellRunner}), in dataset order. */
    private static List<KV<String, byte[]>> take(Map<Dataset, RowBatch> batches) {
        List<KV<String, byte[]>> out = new ArrayList<>(Dataset.values().length);
        for (Dataset d : Dataset.values()) {
            RowBatch batch = batches.get(d);
            if (batch.size() > 0) {
                out.add(KV.of(d.directory(), batch.take()));
            }
        }
        return out;
    }
}
