package io.servesim.sweep;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;

/**
 * Thin Beam adapter over {@link CellRunner}: one kernel run per cell, emitting per written
 * {@link Dataset} one encoded {@link RowBatch} keyed by the dataset's directory. A cell that throws
 * or exhausts memory (in the kernel or while its rows are built) emits only an {@code errors} row;
 * its other rows are dropped with it. A finished cell's batches are also kept in its
 * {@link Checkpoint} file before they are emitted, so an interrupted sweep can resume; that file
 * is keyed by cell id and rewritten whole by a retried bundle, and the datasets themselves are
 * FileIO's, whose finalization keeps one attempt's output, so retries never duplicate rows.
 */
final class RunCellFn extends DoFn<Cell, KV<String, byte[]>> {
    private static final long serialVersionUID = 1L;

    /** Beam metric namespace of the counters below. */
    static final String METRICS = "servesim.sweep";

    private final List<String> axes;
    private final SweepOutputs outputs;
    private final String progressKey;
    private final String checkpointDir;
    private final Counter completed = Metrics.counter(METRICS, "cells_completed");
    private final Counter failed = Metrics.counter(METRICS, "cells_failed");
    private transient Map<Dataset, Schema> schemas;
    private transient Map<Dataset, RowBatch> batches;

    /**
     * {@code axes}: the sweep's axis names, from which each worker rebuilds the dataset schemas;
     * {@code checkpointDir}: where finished cells' rows are kept ({@link Checkpoint}).
     */
    RunCellFn(List<String> axes, SweepOutputs outputs, String progressKey, Path checkpointDir) {
        this.axes = List.copyOf(axes);
        this.outputs = outputs;
        this.progressKey = progressKey;
        this.checkpointDir = checkpointDir.toString();
    }

    @Setup
    public void setup() {
        schemas = DatasetSchemas.forAxes(axes);
        batches = new EnumMap<>(Dataset.class);
        schemas.forEach((d, schema) -> batches.put(d, new RowBatch(schema)));
    }

    @ProcessElement
    public void process(@Element Cell cell, OutputReceiver<KV<String, byte[]>> out) {
        try {
            CellRunner.Outcome outcome = CellRunner.run(cell, outputs);
            Schema requests = schemas.get(Dataset.REQUESTS);
            Schema sessions = schemas.get(Dataset.SESSIONS);
            Schema decisions = schemas.get(Dataset.DECISIONS);
            outcome.requests().forEach(r -> batches.get(Dataset.REQUESTS).add(SweepRows.request(requests, cell, r)));
            outcome.sessions().forEach(s -> batches.get(Dataset.SESSIONS).add(SweepRows.session(sessions, cell, s)));
            outcome.decisions().forEach(d -> batches.get(Dataset.DECISIONS).add(SweepRows.decision(decisions, cell, d)));
            Schema scaling = schemas.get(Dataset.SCALING);
            outcome.scaling().forEach(c -> batches.get(Dataset.SCALING).add(SweepRows.scaling(scaling, cell, c)));
            batches.get(Dataset.CELLS).add(SweepRows.cell(schemas.get(Dataset.CELLS), cell, outcome.summary()));
        } catch (RuntimeException | AssertionError | StackOverflowError | OutOfMemoryError e) {
            batches.values().forEach(RowBatch::clear); // a cell's rows go out whole or not at all
            batches.get(Dataset.ERRORS).add(SweepRows.error(schemas.get(Dataset.ERRORS), cell, e));
            emit(out, Dataset.ERRORS);
            failed.inc();
            SweepProgress.cellDone(progressKey);
            return;
        }
        List<KV<String, byte[]>> finished = new ArrayList<>(Dataset.values().length);
        for (Dataset d : Dataset.values()) {
            RowBatch batch = batches.get(d);
            if (batch.size() > 0) {
                finished.add(KV.of(d.directory(), batch.take()));
            }
        }
        try {
            Checkpoint.write(Path.of(checkpointDir), cell.cellId(), finished);
        } catch (IOException e) {
            throw new UncheckedIOException("keeping the rows of cell " + cell.cellId() + " in " + checkpointDir, e);
        }
        finished.forEach(out::output);
        completed.inc();
        SweepProgress.cellDone(progressKey);
    }

    /** Outputs {@code d}'s batch, if it has rows (only written datasets ever do: see {@link CellRunner}). */
    private void emit(OutputReceiver<KV<String, byte[]>> out, Dataset d) {
        RowBatch batch = batches.get(d);
        if (batch.size() > 0) {
            out.output(KV.of(d.directory(), batch.take()));
        }
    }
}
