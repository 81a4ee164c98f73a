package io.servesim.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.metrics.Column;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * One section of the report. A panel checks the columns and datasets it needs ({@link ReportContext#has})
 * and returns no section when they are absent, so it appears only for sweeps that have them. Its queries
 * aggregate in DuckDB: a section holds summaries, never a dataset's rows. A panel that draws {@code cells/} columns
 * takes them, with their units, from the metric catalog and says which ({@link #metrics()}), so
 * {@code servesim metrics} and {@code docs/metrics-reference.md} can tell where a metric appears. Panels are listed in
 * {@link Panels}.
 */
interface Panel {
    /** The section's id (its anchor in the page). */
    String id();

    /** The metric catalog's columns this panel draws from {@code cells/}; none for a panel over another dataset. */
    List<Column> metrics();

    /** The section ({@link Charts#section}), or empty when the sweep lacks what it draws. */
    Optional<ObjectNode> section(ReportContext ctx) throws SQLException;
}
