package io.servesim.sweep;

import java.util.EnumMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.TupleTag;

/**
 * Thin Beam adapter over {@link CellRunner}: one kernel run per cell, its rows to one output per
 * {@link Dataset}. A cell that throws emits only an {@code errors} row (its partial records are
 * dropped with it). The function writes no files itself, so a retried bundle cannot leave
 * duplicate rows: FileIO's finalization keeps one attempt's output.
 */
final class RunCellFn extends DoFn<Cell, GenericRecord> {
    private static final long serialVersionUID = 1L;

    /** Beam metric namespace of the counters below. */
    static final String METRICS = "servesim.sweep";

    private final Map<Dataset, String> schemaJson = new EnumMap<>(Dataset.class);
    private final SweepOutputs outputs;
    private final String progressKey;
    private final Counter completed = Metrics.counter(METRICS, "cells_completed");
    private final Counter failed = Metrics.counter(METRICS, "cells_failed");
    private transient Map<Dataset, Schema> schemas;

    RunCellFn(Map<Dataset, Schema> schemas, SweepOutputs outputs, String progressKey) {
        schemas.forEach((d, s) -> schemaJson.put(d, s.toString()));
        this.outputs = outputs;
        this.progressKey = progressKey;
    }

    /** The output tag of {@code dataset} (its directory name). */
    static TupleTag<GenericRecord> tag(Dataset dataset) {
        return new TupleTag<>(dataset.directory());
    }

    @Setup
    public void setup() {
        schemas = new EnumMap<>(Dataset.class);
        schemaJson.forEach((d, s) -> schemas.put(d, new Schema.Parser().parse(s)));
    }

    @ProcessElement
    public void process(@Element Cell cell, MultiOutputReceiver out) {
        CellRunner.Outcome outcome;
        try {
            outcome = CellRunner.run(cell, outputs.requests(), outputs.decisions());
        } catch (RuntimeException | AssertionError | StackOverflowError e) {
            out.get(tag(Dataset.ERRORS)).output(SweepRows.error(schemas.get(Dataset.ERRORS), cell, e));
            failed.inc();
            SweepProgress.cellDone(progressKey);
            return;
        }
        Schema requests = schemas.get(Dataset.REQUESTS);
        outcome.requests().forEach(r -> out.get(tag(Dataset.REQUESTS)).output(SweepRows.request(requests, cell, r)));
        Schema decisions = schemas.get(Dataset.DECISIONS);
        outcome.decisions().forEach(d -> out.get(tag(Dataset.DECISIONS)).output(SweepRows.decision(decisions, cell, d)));
        out.get(tag(Dataset.CELLS)).output(SweepRows.cell(schemas.get(Dataset.CELLS), cell, outcome.summary()));
        completed.inc();
        SweepProgress.cellDone(progressKey);
    }
}
