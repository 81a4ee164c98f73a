package io.servesim.sweep;

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
 * (in the kernel or while its rows are built) emits only an {@code errors} row; its other rows are
 * dropped with it. The function writes no files itself, so a retried bundle cannot leave duplicate
 * rows: FileIO's finalization keeps one attempt's output.
 */
final class RunCellFn extends DoFn<Cell, KV<String, byte[]>> {
    private static final long serialVersionUID = 1L;

    /** Beam metric namespace of the counters below. */
    static final String METRICS = "servesim.sweep";

    private final List<String> axes;
    private final SweepOutputs outputs;
    private final String progressKey;
    private final Counter completed = Metrics.counter(METRICS, "cells_completed");
    private final Counter failed = Metrics.counter(METRICS, "cells_failed");
    private transient Map<Dataset, Schema> schemas;
    private transient Map<Dataset, RowBatch> batches;

    /** {@code axes}: the sweep's axis names, from which each worker rebuilds the dataset schemas. */
    RunCellFn(List<String> axes, SweepOutputs outputs, String progressKey) {
        this.axes = List.copyOf(axes);
        this.outputs = outputs;
        this.progressKey = progressKey;
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
            batches.get(Dataset.CELLS).add(SweepRows.cell(schemas.get(Dataset.CELLS), cell, outcome.summary()));
        } catch (RuntimeException | AssertionError | StackOverflowError e) {
            batches.values().forEach(RowBatch::clear); // a cell's rows go out whole or not at all
            batches.get(Dataset.ERRORS).add(SweepRows.error(schemas.get(Dataset.ERRORS), cell, e));
            emit(out, Dataset.ERRORS);
            failed.inc();
            SweepProgress.cellDone(progressKey);
            return;
        }
        for (Dataset d : Dataset.values()) {
            emit(out, d);
        }
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
