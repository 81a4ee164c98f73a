package io.servesim.metrics;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntArrays;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** Computes the {@link ClusterSummary} from a collector's per-request primitives at the end of a run. */
final class ClusterBreakdown {
    private final MetricsCollector m;
    private final Distribution allTtft;
    private final Distribution allTpot;
    private final Distribution allE2e;

    /** {@code allTtft}, {@code allTpot}, {@code allE2e}: the run's distributions, reused by a group holding every request. */
    ClusterBreakdown(MetricsCollector m, Distribution allTtft, Distribution allTpot, Distribution allE2e) {
        this.m = m;
        this.allTtft = allTtft;
        this.allTpot = allTpot;
        this.allE2e = allE2e;
    }

    /**
     * The cluster's part of a run's summary: {@code injected} requests, routed {@code perInstance} (each counted once
     * where it was last routed), {@code headOfLineBlocks} over all instances, over {@code durationS} of simulated time.
     */
    ClusterSummary summarize(long injected, long[] perInstance, PdSummary pd, long headOfLineBlocks, double durationS) {
        Map<String, GroupSummary> byClass = groups(m.classes(), m.classIdx());
        Map<String, GroupSummary> byTenant = groups(m.tenants(), m.tenantIdx());
        return new ClusterSummary(perInstance.length, perInstance, imbalance(perInstance, pd), m.delayed(), m.sloMet(),
                injected == 0 ? Double.NaN : (double) m.sloMet() / injected,
                MetricsCollector.rate(m.sloMet(), durationS), jain(byTenant), inversions(perInstance.length),
                headOfLineBlocks, byClass, byTenant);
    }

    /**
     * Per group (SLO class or tenant, by name): its counters and latency distributions. With one group
     * every request is in it, so its distributions are the run's, and no per-group copy is made.
     */
    private Map<String, GroupSummary> groups(GroupCounters g, IntArrayList idxOfRequest) {
        int n = g.names.size();
        int tpotCount = allTpot.count();
        LongArrayList[] ttft = new LongArrayList[n];
        LongArrayList[] tpot = new LongArrayList[n];
        LongArrayList[] e2e = new LongArrayList[n];
        for (int k = 0; k < n; k++) {
            ttft[k] = new LongArrayList();
            tpot[k] = new LongArrayList();
            e2e[k] = new LongArrayList();
        }
        for (int i = 0; i < idxOfRequest.size() && n > 1; i++) {
            int k = idxOfRequest.getInt(i);
            ttft[k].add(m.ttftUs().getLong(i));
            long tpotUs = m.tpotUs().getLong(i);
            if (tpotUs != MetricsCollector.NO_TPOT) {
                tpot[k].add(tpotUs);
            }
            e2e[k].add(m.e2eUs().getLong(i));
        }
        Map<String, GroupSummary> out = new TreeMap<>();
        for (int k = 0; k < n; k++) {
            long inj = g.injected.getLong(k);
            long met = g.met.getLong(k);
            out.put(g.names.get(k), new GroupSummary(inj, g.completed.getLong(k), g.rejected.getLong(k),
                    g.dropped.getLong(k), met, inj == 0 ? Double.NaN : (double) met / inj,
                    n == 1 ? allTtft : distribution(ttft[k], allTtft, m.ttftUs().size()),
                    n == 1 ? allTpot : distribution(tpot[k], allTpot, tpotCount),
                    n == 1 ? allE2e : distribution(e2e[k], allE2e, m.e2eUs().size())));
        }
        return new LinkedHashMap<>(out);
    }

    /** A group's distribution; the run's own when the group holds all {@code allCount} values (one class or tenant). */
    private static Distribution distribution(LongArrayList groupUs, Distribution all, int allCount) {
        return groupUs.size() == allCount ? all : Distribution.ofMicros(Percentiles.of(groupUs));
    }

    /**
     * Jain's fairness index (sum x)^2 / (n sum x^2) over tenants' SLO attainment; 1 when all equal, and undefined (NaN)
     * when no tenant met an SLO: 0 / 0, where BLIS returns 1, which would score a run that served no one as perfectly
     * fair (a fitness counts an undefined metric as 0).
     */
    static double jain(Map<String, GroupSummary> byTenant) {
        double sum = 0;
        double sumSq = 0;
        int n = 0;
        for (GroupSummary g : byTenant.values()) {
            if (Double.isNaN(g.sloAttainment())) {
                continue;
            }
            sum += g.sloAttainment();
            sumSq += g.sloAttainment() * g.sloAttainment();
            n++;
        }
        if (n == 0) {
            return Double.NaN;
        }
        return sumSq == 0 ? Double.NaN : sum * sum / (n * sumSq);
    }

    /**
     * The load imbalance: the CV of requests per instance or, under P/D (where a remote request counts once at its prefill
     * instance and once at its decode instance, and the pools differ in size and work), the mean of the two pools' own
     * CVs, so that pools each perfectly even score 0.
     */
    private static double imbalance(long[] perInstance, PdSummary pd) {
        if (!pd.isPd()) {
            return cv(perInstance);
        }
        int p = Math.min(pd.prefill().replicas(), perInstance.length);
        return (cv(Arrays.copyOfRange(perInstance, 0, p)) + cv(Arrays.copyOfRange(perInstance, p, perInstance.length))) / 2;
    }

    static double cv(long[] counts) {
        if (counts.length == 0) {
            return Double.NaN;
        }
        double mean = 0;
        for (long c : counts) {
            mean += c;
        }
        mean /= counts.length;
        if (mean == 0) {
            return 0;
        }
        double var = 0;
        for (long c : counts) {
            var += (c - mean) * (c - mean);
        }
        return Math.sqrt(var / counts.length) / mean;
    }

    /**
     * Priority inversions summed over instances ({@link InversionCounter}). A run whose requests all
     * share one rank (every FCFS run) has none: no request deserves strictly higher priority than
     * another. Otherwise the requests are grouped by instance in one counting pass (in request order).
     */
    private long inversions(int instances) {
        int total = m.instanceIdx().size();
        if (oneRank(total)) {
            return 0;
        }
        int[] start = new int[instances + 1];
        for (int i = 0; i < total; i++) {
            start[m.instanceIdx().getInt(i) + 1]++;
        }
        for (int inst = 0; inst < instances; inst++) {
            start[inst + 1] += start[inst];
        }
        int[] byInstance = new int[total];
        int[] fill = java.util.Arrays.copyOf(start, instances);
        for (int i = 0; i < total; i++) {
            byInstance[fill[m.instanceIdx().getInt(i)]++] = i;
        }
        long sum = 0;
        for (int inst = 0; inst < instances; inst++) {
            int n = start[inst + 1] - start[inst];
            int[] ord = new int[n];
            long[] sched = new long[n];
            double[] rank = new double[n];
            long[] arrival = new long[n];
            long[] id = new long[n];
            for (int k = 0; k < n; k++) {
                int i = byInstance[start[inst] + k];
                arrival[k] = m.arrivalUs().getLong(i);
                id[k] = m.ids().getLong(i);
                sched[k] = arrival[k] + m.schedulingUs().getLong(i);
                rank[k] = m.rank().getDouble(i);
                ord[k] = k;
            }
            // Primitive index sort (ids are unique, so the order is total and stability moot).
            IntArrays.quickSort(ord, 0, n, (a, b) -> arrival[a] != arrival[b] ? Long.compare(arrival[a], arrival[b])
                    : Long.compare(id[a], id[b]));
            sum += InversionCounter.count(ord, sched, rank);
        }
        return sum;
    }

    /** Whether the first {@code total} requests' ranks are one value (as {@link Double#equals}, the counter's distinct ranks). */
    private boolean oneRank(int total) {
        if (total == 0) {
            return true;
        }
        long first = Double.doubleToLongBits(m.rank().getDouble(0));
        for (int i = 1; i < total; i++) {
            if (Double.doubleToLongBits(m.rank().getDouble(i)) != first) {
                return false;
            }
        }
        return true;
    }
}
