package io.servesim.metrics;

import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.util.Arrays;
import org.apache.commons.numbers.arrays.Selection;

/**
 * Exact order statistics of a sample. Percentile p uses linear interpolation between the closest
 * ranks, {@code x[floor(h)] + (h - floor(h)) * (x[floor(h)+1] - x[floor(h)])} with
 * {@code h = (n - 1) * p / 100} (Hyndman and Fan type 7, NumPy's and DuckDB's
 * {@code quantile_cont} default), so results can be checked against a notebook.
 *
 * <p>Samples of doubles are sorted on all cores ({@link Arrays#parallelSort}) and the mean sums the
 * sorted values. Samples of integer microseconds (a run's latencies, a million values each in a
 * 1,000,000-request run) are not sorted: the ranks of the {@link #REPORTED} percentiles are put in
 * place by Commons Numbers' introselect ({@link Selection}, linear in the sample), and the mean is
 * their exact integer sum over the count. Both give the same doubles as sorting would: an order
 * statistic is the same value however it is found, and a sum of integers whose magnitudes add up to
 * less than 2^53 is exact in any order (a sample beyond that is sorted as before). Any other
 * percentile sorts the sample on first use, in place: an instance is not for sharing between threads.
 */
public final class Percentiles {
    /** The percentiles {@link Distribution} reports (besides min and max). */
    static final double[] REPORTED = {50, 90, 95, 99};
    /** Magnitude below which every integer, and so every partial sum of integers, is an exact double. */
    private static final long EXACT_SUM_LIMIT = 1L << 53;

    private final double[] values;
    /** Ranks already in place in {@link #values} (null once it is sorted). */
    private int[] selectedRanks;
    private final double mean;
    private final double min;
    private final double max;

    /** A sorted sample; the mean sums it in order. */
    private Percentiles(double[] sorted) {
        this.values = sorted;
        double sum = 0;
        for (double v : sorted) {
            sum += v;
        }
        this.mean = sorted.length == 0 ? Double.NaN : sum / sorted.length;
        this.min = sorted.length == 0 ? Double.NaN : sorted[0];
        this.max = sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1];
    }

    /** A non-empty sample with {@code selectedRanks} in place. */
    private Percentiles(double[] values, int[] selectedRanks, double mean, double min, double max) {
        this.values = values;
        this.selectedRanks = selectedRanks;
        this.mean = mean;
        this.min = min;
        this.max = max;
    }

    public static Percentiles of(double[] values) {
        double[] copy = values.clone();
        Arrays.parallelSort(copy);
        return new Percentiles(copy);
    }

    public static Percentiles of(LongArrayList values) {
        int n = values.size();
        long[] keys = values.elements();
        double[] copy = new double[n];
        long sum = 0;
        long sumAbs = 0;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            long v = keys[i];
            copy[i] = v;
            sum += v;
            // |v| < 2^53 and the running total of magnitudes too, so no addition can overflow either
            // (tested as a range, since Math.abs(Long.MIN_VALUE) is negative)
            boolean small = v > -EXACT_SUM_LIMIT && v < EXACT_SUM_LIMIT;
            sumAbs = small && sumAbs < EXACT_SUM_LIMIT ? sumAbs + Math.abs(v) : EXACT_SUM_LIMIT;
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        if (n == 0 || sumAbs >= EXACT_SUM_LIMIT) {
            Arrays.sort(copy);
            return new Percentiles(copy);
        }
        int[] ranks = new int[2 * REPORTED.length];
        for (int k = 0; k < REPORTED.length; k++) {
            ranks[2 * k] = lowRank(n, REPORTED[k]);
            ranks[2 * k + 1] = highRank(n, REPORTED[k]);
        }
        Selection.select(copy, ranks);
        return new Percentiles(copy, ranks, (double) sum / n, min, max);
    }

    public int count() { return values.length; }
    public double mean() { return mean; }
    public double min() { return min; }
    public double max() { return max; }

    /** The p-th percentile, 0 <= p <= 100; NaN for an empty sample. */
    public double percentile(double p) {
        if (p < 0 || p > 100) {
            throw new IllegalArgumentException("percentile " + p);
        }
        int n = values.length;
        if (n == 0) {
            return Double.NaN;
        }
        int lo = lowRank(n, p);
        int hi = highRank(n, p);
        if (selectedRanks != null && !(selected(lo) && selected(hi))) {
            Arrays.sort(values); // a permutation of the sample: sorting it is sorting the sample
            selectedRanks = null;
        }
        double h = (n - 1) * p / 100.0;
        return values[lo] + (h - lo) * (values[hi] - values[lo]);
    }

    private boolean selected(int rank) {
        for (int r : selectedRanks) {
            if (r == rank) {
                return true;
            }
        }
        return false;
    }

    private static int lowRank(int n, double p) {
        return (int) Math.floor((n - 1) * p / 100.0);
    }

    private static int highRank(int n, double p) {
        return Math.min(lowRank(n, p) + 1, n - 1);
    }
}
