package io.servesim.metrics;

import java.util.Arrays;

/**
 * Counts priority inversions at one instance: pairs of requests (h, l) where h arrived first,
 * deserves strictly higher priority, yet was scheduled strictly later than l. (FCFS never
 * inverts; a scheduler serving later, less important requests first does.) Arrival order is
 * (arrival time, request id), the order the simulation saw them. Counted exactly with a
 * divide-and-conquer over arrival order and a Fenwick tree over ranks: O(n log^2 n).
 */
public final class InversionCounter {
    private InversionCounter() {
    }

    /**
     * @param arrivalOrder  indices sorted by arrival order
     * @param scheduledUs   first-scheduled time per index
     * @param rank          priority rank per index (higher first)
     */
    public static long count(int[] arrivalOrder, long[] scheduledUs, double[] rank) {
        int n = arrivalOrder.length;
        if (n < 2) {
            return 0;
        }
        double[] distinct = Arrays.stream(rank).sorted().distinct().toArray();
        int[] rankIdx = new int[rank.length];
        for (int i = 0; i < rank.length; i++) {
            rankIdx[i] = Arrays.binarySearch(distinct, rank[i]);
        }
        long[] fenwick = new long[rank.length + 1];
        int[] buf = arrivalOrder.clone();
        int[] tmp = new int[n];
        return solve(buf, tmp, 0, n, scheduledUs, rankIdx, fenwick);
    }

    /** Counts pairs within [lo, hi) and leaves the range sorted by scheduled time descending. */
    private static long solve(int[] a, int[] tmp, int lo, int hi, long[] sched, int[] rankIdx, long[] fenwick) {
        if (hi - lo < 2) {
            return 0;
        }
        int mid = (lo + hi) >>> 1;
        long count = solve(a, tmp, lo, mid, sched, rankIdx, fenwick) + solve(a, tmp, mid, hi, sched, rankIdx, fenwick);
        // left = earlier arrivals (h candidates), right = later (l candidates); both sorted by sched desc.
        int i = lo;
        for (int j = mid; j < hi; j++) {
            int l = a[j];
            while (i < mid && sched[a[i]] > sched[l]) {
                add(fenwick, rankIdx[a[i]], 1);
                i++;
            }
            count += above(fenwick, rankIdx[l]);
        }
        for (int k = lo; k < i; k++) {
            add(fenwick, rankIdx[a[k]], -1);
        }
        // merge by sched descending
        int p = lo;
        int q = mid;
        int t = lo;
        while (p < mid || q < hi) {
            if (q >= hi || (p < mid && sched[a[p]] >= sched[a[q]])) {
                tmp[t++] = a[p++];
            } else {
                tmp[t++] = a[q++];
            }
        }
        System.arraycopy(tmp, lo, a, lo, hi - lo);
        return count;
    }

    private static void add(long[] f, int idx, long v) {
        for (int i = idx + 1; i < f.length; i += i & -i) {
            f[i] += v;
        }
    }

    /** Inserted elements with rank index strictly greater than {@code idx}. */
    private static long above(long[] f, int idx) {
        return prefix(f, f.length - 1) - prefix(f, idx + 1);
    }

    private static long prefix(long[] f, int count) {
        long s = 0;
        for (int i = count; i > 0; i -= i & -i) {
            s += f[i];
        }
        return s;
    }
}
