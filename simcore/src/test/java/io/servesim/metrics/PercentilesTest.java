package io.servesim.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PercentilesTest {
    @Test
    void linearInterpolationBetweenClosestRanks() {
        // x = 10,20,30,40 (n=4). p50: h = 3*0.5 = 1.5 -> 20 + 0.5*10 = 25.
        // p90: h = 2.7 -> 30 + 0.7*10 = 37. p99: h = 2.97 -> 39.7 (NumPy default gives the same).
        Percentiles p = Percentiles.of(new double[] {40, 10, 30, 20});
        assertEquals(25, p.percentile(50), 1e-12);
        assertEquals(37, p.percentile(90), 1e-12);
        assertEquals(39.7, p.percentile(99), 1e-12);
        assertEquals(10, p.percentile(0), 0);
        assertEquals(40, p.percentile(100), 0);
        assertEquals(25, p.mean(), 0);
        assertEquals(true, Double.isNaN(Percentiles.of(new double[0]).percentile(50)));
    }

    @Test
    void integerSamplesGiveTheDoublesOfSortingThem() {
        // Selection (and an integer mean) must equal the sort-based statistics bit for bit: sizes 1..2000,
        // few distinct values (ties at the ranks) and wide ones, and samples whose magnitudes sum past 2^53
        // (the sorted fallback). Reference: the sample sorted as doubles, summed in order, interpolated.
        SplittableRandom rnd = new SplittableRandom(7);
        for (int trial = 0; trial < 400; trial++) {
            int n = 1 + rnd.nextInt(trial < 200 ? 20 : 2000);
            long bound = trial % 3 == 0 ? 5 : trial % 3 == 1 ? 100_000_000L : 1L << 52;
            LongArrayList sample = new LongArrayList();
            for (int i = 0; i < n; i++) {
                sample.add(rnd.nextLong(bound) - (trial % 7 == 0 ? bound / 2 : 0));
            }
            double[] sorted = sample.longStream().asDoubleStream().sorted().toArray();
            double sum = 0;
            for (double v : sorted) {
                sum += v;
            }
            Percentiles p = Percentiles.of(sample);
            String at = "trial " + trial + " n " + n;
            assertEquals(sum / n, p.mean(), 0, at);
            assertEquals(sorted[0], p.min(), 0, at);
            assertEquals(sorted[n - 1], p.max(), 0, at);
            for (double q : new double[] {50, 90, 95, 99, 0, 37.5, 100, 99}) { // a reported one after the sort too
                double h = (n - 1) * q / 100.0;
                int lo = (int) Math.floor(h);
                int hi = Math.min(lo + 1, n - 1);
                assertEquals(sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]), p.percentile(q), 0, at + " p" + q);
            }
        }
        assertEquals(true, Double.isNaN(Percentiles.of(new LongArrayList()).mean()));
        // Math.abs(Long.MIN_VALUE) is negative: such a sample must take the sorted path, not the integer sum.
        // Summed in sorted order, each +600 rounds to +1024 next to -2^63 (doubles there are 1024 apart):
        // -2^63 + 1,024,000, where the exact sum -2^63 + 600,000 would round to -2^63 + 600,064.
        LongArrayList extreme = new LongArrayList();
        extreme.add(Long.MIN_VALUE);
        double sortedSum = Long.MIN_VALUE;
        for (int i = 0; i < 1000; i++) {
            extreme.add(600);
            sortedSum += 600;
        }
        assertEquals(sortedSum / 1001, Percentiles.of(extreme).mean(), 0);
    }

    @Test
    void integerSampleIsLeftUnchanged() {
        LongArrayList sample = LongArrayList.of(5, 3, 9, 1);
        // sorted 1, 3, 5, 9; p90: h = 3 * 0.9 = 2.7 -> 5 + 0.7 * (9 - 5) = 7.8; the caller's list keeps its order
        assertEquals(7.8, Percentiles.of(sample).percentile(90), 1e-12);
        assertEquals(Arrays.toString(new long[] {5, 3, 9, 1}), Arrays.toString(sample.toLongArray()));
    }
}
