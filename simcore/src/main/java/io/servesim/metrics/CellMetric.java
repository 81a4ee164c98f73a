package io.servesim.metrics;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * One metric of a run, defined once: its column in a sweep's {@code cells/} dataset, its value
 * type, unit and description (which become the column's Avro type and doc in
 * {@code schemas/cell.avsc}), how it aggregates over cells (the sweep's result table averages
 * seeds with it), where the same number sits in the run's summary JSON, and how it is read from a
 * {@link RunSummary}. The catalog is {@link CellMetrics}.
 *
 * @param column      column name (units in the name: {@code _ms}, {@code _s}, {@code _rps})
 * @param kind        value type
 * @param unit        unit ({@code ms}, {@code s}, {@code 1/s}; empty for counts, fractions and text)
 * @param aggregation how values of several cells combine
 * @param summaryPath JSON pointer of the same value in {@link RunSummary#toMap()}
 * @param value       reads the value from a summary
 * @param description what it measures (the column's doc)
 */
public record CellMetric(String column, Kind kind, String unit, Aggregation aggregation, String summaryPath,
                         Function<RunSummary, Object> value, String description) {
    /** Value types, each with its Avro type. */
    public enum Kind {
        /** A 64-bit count ({@code long}). */
        COUNT,
        /** A 32-bit integer ({@code int}). */
        INT,
        /** A number that is always defined ({@code double}). */
        DOUBLE,
        /** A statistic of a sample that may be empty: null rather than NaN, so SQL aggregates skip it. */
        OPTIONAL_DOUBLE,
        /** Text ({@code string}). */
        TEXT
    }

    /** How values of several cells (seeds, or axes averaged away) combine. */
    public enum Aggregation {
        /** Arithmetic mean (SQL {@code avg}). */
        MEAN,
        /** Any one value (SQL {@code any_value}; they are equal across the cells combined, e.g. a model name). */
        ANY;

        /**
         * Combines {@code values} (one per cell) as the SQL aggregate does: nulls are skipped and no
         * value left gives null. The mean is a double; any value is the first one.
         */
        public Object combine(List<?> values) {
            if (this == ANY) {
                return values.stream().filter(Objects::nonNull).findFirst().orElse(null);
            }
            double sum = 0;
            int n = 0;
            for (Object v : values) {
                if (v != null) {
                    sum += ((Number) v).doubleValue();
                    n++;
                }
            }
            return n == 0 ? null : sum / n;
        }
    }

    /** The value to store in a row: as read, except that a non-finite optional double is null. */
    public Object rowValue(RunSummary s) {
        Object v = value.apply(s);
        if (kind == Kind.OPTIONAL_DOUBLE && v instanceof Double d && !Double.isFinite(d)) {
            return null;
        }
        return v;
    }
}
