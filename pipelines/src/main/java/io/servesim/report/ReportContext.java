package io.servesim.report;

import io.servesim.sweep.Dataset;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;

/**
 * What every panel reads: the sweep, the roles of its axes, the DuckDB connection and each written dataset's
 * columns (from its Parquet schema). A panel appears only when the columns or datasets it needs are here,
 * so a sweep written before a column existed still gets every panel it can have.
 */
final class ReportContext {
    private final SweepOutput sweep;
    private final ReportAxes axes;
    private final Duck duck;
    private final Map<Dataset, Set<String>> columns = new EnumMap<>(Dataset.class);

    ReportContext(SweepOutput sweep, ReportAxes axes, Duck duck) throws SQLException {
        this.sweep = sweep;
        this.axes = axes;
        this.duck = duck;
        for (Dataset d : Dataset.values()) {
            if (sweep.has(d)) {
                columns.put(d, duck.columns(sweep.path(d)));
            }
        }
    }

    SweepOutput sweep() {
        return sweep;
    }

    ReportAxes axes() {
        return axes;
    }

    Duck duck() {
        return duck;
    }

    /** Whether {@code dataset} was written with every one of {@code required} columns. */
    boolean has(Dataset dataset, String... required) {
        Set<String> cols = columns.get(dataset);
        return cols != null && cols.containsAll(Set.of(required));
    }

    /** {@code read_parquet(...)} of {@code dataset}. */
    String from(Dataset dataset) {
        return Duck.parquet(sweep.path(dataset));
    }

    /** Rows of {@code dataset} (0 when it was not written). */
    long rows(Dataset dataset) throws SQLException {
        return columns.containsKey(dataset) ? ((Number) duck.value("SELECT count(*) FROM " + from(dataset))).longValue() : 0;
    }

    /** The SQL expression of an axis's label, or the constant {@code 'all'} when {@code axis} is null. */
    static String label(SweepAxis axis) {
        return axis == null ? "'all'" : Duck.quote(axis.name());
    }
}
