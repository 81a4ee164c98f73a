package io.servesim.sweep;

import io.servesim.decisions.DecisionRecord;
import io.servesim.io.DecisionRows;
import io.servesim.io.RequestRows;
import io.servesim.io.RowFields;
import io.servesim.io.ScalingRows;
import io.servesim.io.SessionRows;
import io.servesim.metrics.Column;
import io.servesim.metrics.MetricCatalog;
import io.servesim.metrics.ReplicaCounts;
import io.servesim.metrics.RequestRecord;
import io.servesim.metrics.RunSummary;
import io.servesim.metrics.SessionRecord;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Builds the rows of each sweep dataset from kernel results: a fresh record per row (Beam forbids
 * mutating an element after output), key columns first ({@link DatasetSchemas}), then the fields of
 * the dataset's schema, by name; a cell's row is the metric catalog's columns ({@link MetricCatalog#COLUMNS}).
 */
final class SweepRows {
    private SweepRows() {
    }

    /** Appends {@code r}'s row to {@code batch} (a requests batch), encoded field by field. */
    static void request(RowBatch batch, Cell cell, RequestRecord r) {
        RowFields row = batch.beginRow();
        row.put(DatasetSchemas.CELL_ID, cell.cellId());
        for (Cell.AxisLabel a : cell.axes()) {
            row.put(a.axis(), a.label());
        }
        row.put(DatasetSchemas.SEED, cell.seed());
        RequestRows.fill(row, r);
        batch.endRow();
    }

    static GenericRecord session(Schema schema, Cell cell, SessionRecord s) {
        GenericData.Record row = keyed(schema, cell);
        SessionRows.fill(row, s);
        return row;
    }

    static GenericRecord cell(Schema schema, Cell cell, RunSummary s) {
        GenericData.Record row = keyed(schema, cell);
        row.put("cell_index", cell.index());
        for (Column c : MetricCatalog.COLUMNS) {
            row.put(c.name(), c.rowValue(s));
        }
        return row;
    }

    static GenericRecord error(Schema schema, Cell cell, Throwable t) {
        GenericData.Record row = keyed(schema, cell);
        row.put("cell_index", cell.index());
        row.put("exception_class", t.getClass().getName());
        row.put("message", t.getMessage() == null ? "" : t.getMessage());
        StackTraceElement[] st = t.getStackTrace();
        row.put("thrown_at", st.length == 0 ? "" : st[0].toString());
        return row;
    }

    static GenericRecord decision(Schema schema, Cell cell, DecisionRecord d) {
        GenericData.Record row = keyed(schema, cell);
        DecisionRows.fill(row, d);
        return row;
    }

    static GenericRecord scaling(Schema schema, Cell cell, ReplicaCounts c) {
        GenericData.Record row = keyed(schema, cell);
        ScalingRows.fill(row, c);
        return row;
    }

    private static GenericData.Record keyed(Schema schema, Cell cell) {
        GenericData.Record row = new GenericData.Record(schema);
        row.put(DatasetSchemas.CELL_ID, cell.cellId());
        cell.axes().forEach(a -> row.put(a.axis(), a.label()));
        row.put(DatasetSchemas.SEED, cell.seed());
        return row;
    }
}
