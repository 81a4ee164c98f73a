package io.servesim.compare;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The joined values behind {@code compare}'s statistics, for plotting: per metric, each key found on both
 * sides with its simulated and measured means, joined exactly as {@link CompareJob} joins them
 * ({@link SimCells}, {@link RealCsv}, {@link Comparison}). Keys whose simulated value is missing are left out,
 * as they are of the statistics.
 */
public final class ComparePairs {
    private ComparePairs() {
    }

    /**
     * One joined key of one metric.
     *
     * @param key  {@code axis=label, ...}
     * @param sim  the simulated mean
     * @param real the measured mean
     */
    public record Pair(String key, double sim, double real) {
    }

    /** The pairs of each of {@code metrics} (in order) for cells {@code sim} and CSV {@code real} joined on {@code on}. */
    public static List<List<Pair>> read(Path sim, Path real, List<String> on, List<String> metrics) throws IOException {
        KeyedMetrics simRows = SimCells.read(sim, on, metrics);
        KeyedMetrics realRows = RealCsv.read(real, on, metrics);
        Comparison join = new Comparison(simRows, realRows);
        List<List<Pair>> out = new ArrayList<>();
        for (int m = 0; m < metrics.size(); m++) {
            List<Pair> pairs = new ArrayList<>();
            for (List<String> key : join.joined()) {
                double s = simRows.mean(key, m);
                if (!Double.isNaN(s)) {
                    pairs.add(new Pair(simRows.describe(key), s, realRows.mean(key, m)));
                }
            }
            out.add(pairs);
        }
        return out;
    }
}
