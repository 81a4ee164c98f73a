package io.servesim.metrics;

import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.longs.LongArrays;
import java.util.Arrays;

/**
 * Exact order statistics of a sample. Percentile p uses linear interpolation between the closest
 * ranks, {@code x[floor(h)] + (h - floor(h)) * (x[floor(h)+1] - x[floor(h)])} with
 * {@code h = (n - 1) * p / 100} (Hyndman and Fan type 7, NumPy's and DuckDB's
 * {@code quantile_cont} default), so results can be checked against a notebook. Samples of doubles
 * are sorted on all cores ({@link Arrays#parallelSort}); samples of integer microseconds by fastutil's
 * radix sort ({@link LongArrays#radixSort}, linear in the sample: a 1,000,000-request run's seven
 * latency samples took ~0.5 s to sort by comparison). Either way the sorted order, and so every
 * statistic (the mean too: it sums the sorted values), is the same.
 */
public final class Percentiles {
    private final double[] sorted;
    private final double mean;

    private Percentiles(double[] sorted) {
        this.sorted = sorted;
        double sum = 0;
        for (double v : sorted) {
            sum += v;
        }
        this.mean = sorted.length == 0 ? Double.NaN : sum / sorted.length;
    }

    public static Percentiles of(double[] values) {
        double[] copy = values.clone();
        Arrays.parallelSort(copy);
        return new Percentiles(copy);
    }

    public static Percentiles of(LongArrayList values) {
        long[] keys = values.toLongArray();
        LongArrays.radixSort(keys);
        double[] sorted = new double[keys.length];
        for (int i = 0; i < keys.length; i++) {
            sorted[i] = keys[i];
        }
        return new Percentiles(sorted);
    }

    public int count() { return sorted.length; }
    public double mean() { return mean; }
    public double min() { return sorted.length == 0 ? Double.NaN : sorted[0]; }
    public double max() { return sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1]; }

    /** The p-th percentile, 0 <= p <= 100; NaN for an empty sample. */
    public double percentile(double p) {
        if (p < 0 || p > 100) {
            throw new IllegalArgumentException("percentile " + p);
        }
        int n = sorted.length;
        if (n == 0) {
            return Double.NaN;
        }
        double h = (n - 1) * p / 100.0;
        int lo = (int) Math.floor(h);
        int hi = Math.min(lo + 1, n - 1);
        return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
    }
}
