package io.servesim.sweep;

import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.TupleTag;

/**
 * Thin Beam adapter over {@link CellRunner}: one kernel run per cell, its rows to one output per
 * {@link Dataset}, each as one batch (see {@link RowBatchSink}). A cell that throws emits only an
 * {@code errors} row (its partial records are dropped with it). The function writes no files itself, so a retried bundle cannot leave
 * duplicate rows: FileIO's finalization keeps one attempt's output.
 */
final class RunCellFn extends DoFn<Cell, List<GenericRecord>> {
    private static final long serialVersionUID = 1L;

    /** Beam metric namespace of the counters below. */
    static final String METRICS = "servesim.sweep";

    private final List<String> axes;
    private final SweepOutputs outputs;
    private final String progressKey;
    private final Counter completed = Metrics.counter(METRICS, "cells_completed");
    private final Counter failed = Metrics.counter(METRICS, "cells_failed");
    private transient Map<Dataset, Schema> schemas;

    /** {@code axes}: the sweep's axis names, from which each worker rebuilds the dataset schemas. */
    RunCellFn(List<String> axes, SweepOutputs outputs, String progressKey) {
        this.axes = List.copyOf(axes);
        this.outputs = outputs;
        this.progressKey = progressKey;
    }

    /** The output tag of {@code dataset} (its directory name). */
    static TupleTag<List<GenericRecord>> tag(Dataset dataset) {
        return new TupleTag<>(dataset.directory());
    }

    @Setup
    public void setup() {
        schemas = DatasetSchemas.forAxes(axes);
    }

    @ProcessElement
    public void process(@Element Cell cell, MultiOutputReceiver out) {
        CellRunner.Outcome outcome;
        try {
            outcome = CellRunner.run(cell, outputs);
        } catch (RuntimeException | AssertionError | StackOverflowError e) {
            out.get(tag(Dataset.ERRORS)).output(List.of(SweepRows.error(schemas.get(Dataset.ERRORS), cell, e)));
            failed.inc();
            SweepProgress.cellDone(progressKey);
            return;
        }
        Schema requests = schemas.get(Dataset.REQUESTS);
        Schema sessions = schemas.get(Dataset.SESSIONS);
        Schema decisions = schemas.get(Dataset.DECISIONS);
        emit(out, Dataset.REQUESTS, outcome.requests().stream().map(r -> SweepRows.request(requests, cell, r)).toList());
        emit(out, Dataset.SESSIONS, outcome.sessions().stream().map(s -> SweepRows.session(sessions, cell, s)).toList());
        emit(out, Dataset.DECISIONS, outcome.decisions().stream().map(d -> SweepRows.decision(decisions, cell, d)).toList());
        emit(out, Dataset.CELLS, List.of(SweepRows.cell(schemas.get(Dataset.CELLS), cell, outcome.summary())));
        completed.inc();
        SweepProgress.cellDone(progressKey);
    }

    private static void emit(MultiOutputReceiver out, Dataset d, List<GenericRecord> rows) {
        if (!rows.isEmpty()) {
            out.get(tag(d)).output(rows);
        }
    }
}
