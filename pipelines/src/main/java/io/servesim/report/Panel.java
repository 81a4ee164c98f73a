package io.servesim.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.SQLException;
import java.util.Optional;

/**
 * One section of the report. A panel checks the columns and datasets it needs ({@link ReportContext#has})
 * and returns no section when they are absent, so it appears only for sweeps that have them. Its queries
 * aggregate in DuckDB: a section holds summaries, never a dataset's rows. Panels are listed in
 * {@link Panels}.
 */
interface Panel {
    /** The section ({@link Charts#section}), or empty when the sweep lacks what it draws. */
    Optional<ObjectNode> section(ReportContext ctx) throws SQLException;
}
