package io.servesim.sweep;

import io.servesim.io.Schemas;
import org.apache.avro.Schema;

/**
 * The Parquet datasets a sweep writes, each under {@code out/<sweep>/<directory>/} with the columns
 * of its {@code schemas/*.avsc} file behind the sweep's key columns ({@link DatasetSchemas}).
 * Adding a dataset is a constant here, a schema file and its rows in {@link RunCellFn}.
 */
public enum Dataset {
    /** One row per simulated request. */
    REQUESTS("requests", "request.avsc"),
    /** One row per agentic session (empty for workloads without agentic clients). */
    SESSIONS("sessions", "session.avsc"),
    /** One row per cell: its aggregates. */
    CELLS("cells", "cell.avsc"),
    /** One row per routing decision (opt-in). */
    DECISIONS("decisions", "decision.avsc"),
    /** The replica timeline: one row per change of the replicas per lifecycle state (opt-in). */
    SCALING("scaling", "scaling.avsc"),
    /** One row per cell that threw at run time. */
    ERRORS("errors", "error.avsc");

    private final String directory;
    private final String schemaFile;

    Dataset(String directory, String schemaFile) {
        this.directory = directory;
        this.schemaFile = schemaFile;
    }

    /** Directory under the sweep's output, and the name of the Beam steps and output tag. */
    public String directory() {
        return directory;
    }

    /** The dataset's own columns ({@code schemas/<file>}), without the sweep's key columns. */
    public Schema baseSchema() {
        return Schemas.load(schemaFile);
    }
}
