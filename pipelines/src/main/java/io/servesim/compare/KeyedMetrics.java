package io.servesim.compare;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rows of one side (simulated cells or measurements) grouped by key: the normalised labels of the
 * {@code --on} columns ({@link AxisLabel}), in {@code --on} order. A metric of a key is the mean over
 * the key's rows, e.g. over the seeds of one sweep cell; NaN (no value) when any of them has none. Keys keep
 * the order of their first row.
 */
final class KeyedMetrics {
    private final String source;
    private final List<String> on;
    private final List<String> metrics;
    private final Map<List<String>, double[]> sums = new LinkedHashMap<>();
    private final Map<List<String>, Integer> rowCounts = new LinkedHashMap<>();
    private final Map<String, Long> averagedAxes = new LinkedHashMap<>();
    private final Map<List<String>, String> firstWhere = new LinkedHashMap<>();
    private String repeatedExample;
    private int rows;

    /** {@code source} names the file or directory in messages. */
    KeyedMetrics(String source, List<String> on, List<String> metrics) {
        this.source = source;
        this.on = List.copyOf(on);
        this.metrics = List.copyOf(metrics);
    }

    /** Adds one row: raw labels of the {@code --on} columns and the values of the metrics (NaN: none), in order. */
    void add(List<String> labels, double[] values) {
        add(labels, values, null);
    }

    /**
     * As {@link #add(List, double[])}, {@code where} naming the row ({@code line 7}) so that a key's second row can be
     * pointed at ({@link #repeatedExample()}).
     */
    void add(List<String> labels, double[] values, String where) {
        List<String> key = labels.stream().map(AxisLabel::normalise).toList();
        if (where != null) {
            String first = firstWhere.putIfAbsent(key, where);
            if (first != null && repeatedExample == null) {
                repeatedExample = first + " and " + where + ": " + describe(key);
            }
        }
        double[] sum = sums.computeIfAbsent(key, k -> new double[metrics.size()]);
        for (int m = 0; m < values.length; m++) {
            sum[m] += values[m];
        }
        rowCounts.merge(key, 1, Integer::sum);
        rows++;
    }

    /** Records that axis column {@code axis}, not in {@code --on}, takes {@code values} values averaged within keys. */
    void averagedAxis(String axis, long values) {
        averagedAxes.put(axis, values);
    }

    /** Axis columns not in {@code --on} averaged within keys, with their numbers of distinct values. */
    Map<String, Long> averagedAxes() {
        return averagedAxes;
    }

    String source() {
        return source;
    }

    Set<List<String>> keys() {
        return sums.keySet();
    }

    /** Mean of metric {@code metricIndex} over the rows of {@code key}. */
    double mean(List<String> key, int metricIndex) {
        return sums.get(key)[metricIndex] / rowCounts.get(key);
    }

    int rows() {
        return rows;
    }

    /** Rows of {@code key}. */
    int rows(List<String> key) {
        return rowCounts.get(key);
    }

    /** Keys with more than one row. */
    long repeatedKeys() {
        return rowCounts.values().stream().filter(n -> n > 1).count();
    }

    /** The first key found on a second row, with both rows ({@code line 3 and line 7: rate=20}); null when none. */
    String repeatedExample() {
        return repeatedExample;
    }

    /** Most rows any key has (1 when every key is one row). */
    int maxRowsPerKey() {
        return rowCounts.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    /** {@code axis=label, axis=label} for messages and the output. */
    String describe(List<String> key) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < on.size(); i++) {
            s.append(i == 0 ? "" : ", ").append(on.get(i)).append('=').append(key.get(i));
        }
        return s.toString();
    }
}
