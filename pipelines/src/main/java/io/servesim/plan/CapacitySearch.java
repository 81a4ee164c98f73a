package io.servesim.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * The search for one candidate's capacity: the highest rate of a {@link RateGrid} at which its run on the full trace
 * meets every SLO, assuming (as bisection must) that the SLO metrics do not improve as the rate grows. The bracket
 * [lo, hi] holds a grid index known to meet (lo) and one known to miss (hi). While no miss is known the rate doubles
 * from the last one met (from {@code startRps} when none is); then the bracket is cut into {@code k + 1} parts per
 * round (k = 1: bisection) until hi = lo + 1. The capacity is then lo's rate: it meets every SLO and the next grid rate,
 * one tolerance higher, does not; or the grid's highest rate, when even that one meets them ({@link #capped}).
 *
 * <p>The search is replayed from the results on every call: each step's rates are the same whenever its predecessors'
 * outcomes are, so an interrupted plan that is resumed asks for exactly the runs it had not finished.
 */
final class CapacitySearch {
    private static final long UNKNOWN = Long.MAX_VALUE;

    private final int candidate;
    private final RateGrid grid;
    private final int requests;
    private final List<Slo> slos;
    private final int k;
    private final double startRps;
    private final long lo0;
    private final long hi0;

    /** Where the search stands: the bracket, and the rates it waits for (empty when done). */
    record State(long lo, long hi, List<Double> pending) {
        boolean done() {
            return pending.isEmpty();
        }
    }

    /**
     * @param zeroMeets whether the grid's index 0 is known to meet every SLO (a plan's target rate, confirmed on the full
     *                  trace), known to miss them, or, null, is rate 0 (a search from nothing: it meets trivially)
     * @param startRps  the first rate tried while nothing above index 0 is known (a config's own rate)
     */
    CapacitySearch(int candidate, RateGrid grid, int requests, List<Slo> slos, int k, double startRps, Boolean zeroMeets) {
        this.candidate = candidate;
        this.grid = grid;
        this.requests = requests;
        this.slos = slos;
        this.k = Math.max(1, k);
        this.startRps = startRps;
        this.lo0 = zeroMeets == null || zeroMeets ? 0 : grid.minIndex() - 1;
        this.hi0 = zeroMeets != null && !zeroMeets ? 0 : UNKNOWN;
    }

    /** Replays the search over {@code results}. */
    State state(Results results) {
        long lo = lo0;
        long hi = hi0;
        while (true) {
            List<Long> points = next(lo, hi);
            if (points.isEmpty()) {
                return new State(lo, hi, List.of());
            }
            List<Double> missing = new ArrayList<>();
            for (long j : points) {
                if (results.get(candidate, grid.rate(j), requests) == null) {
                    missing.add(grid.rate(j));
                }
            }
            if (!missing.isEmpty()) {
                return new State(lo, hi, missing);
            }
            for (long j : points) { // ascending: the first miss ends the step, a meet above it is not believed
                if (j >= hi) {
                    break;
                }
                if (results.get(candidate, grid.rate(j), requests).feasible(slos)) {
                    lo = j;
                } else {
                    hi = j;
                    break;
                }
            }
        }
    }

    /** The grid indexes the next step tries (ascending), none when the bracket is closed. */
    private List<Long> next(long lo, long hi) {
        List<Long> out = new ArrayList<>();
        if (hi == UNKNOWN) {
            if (lo >= grid.maxIndex()) {
                return out;
            }
            double base = lo >= grid.minIndex() ? grid.rate(lo) * 2 : startRps;
            long last = lo;
            for (int i = 0; i < k && last < grid.maxIndex(); i++) {
                long j = Math.max(last + 1, grid.indexAtLeast(base * Math.pow(2, i)));
                out.add(j);
                last = j;
            }
            return out;
        }
        for (int i = 1; i <= k; i++) {
            long j = lo + (hi - lo) * i / (k + 1);
            if (j > lo && j < hi && (out.isEmpty() || j > out.get(out.size() - 1))) {
                out.add(j);
            }
        }
        return out;
    }

    /** The capacity of a finished search, requests per second (0: not even the lowest grid rate meets every SLO). */
    double capacityRps(State s) {
        return s.lo() >= grid.minIndex() ? grid.rate(s.lo()) : 0;
    }

    /** Whether the finished search met every SLO up to the grid's highest rate (the capacity is at least it). */
    static boolean capped(State s) {
        return s.hi() == UNKNOWN;
    }

    /** The lowest rate known to miss an SLO, or NaN when none is (capped). */
    double missRps(State s) {
        return s.hi() == UNKNOWN ? Double.NaN : grid.rate(s.hi());
    }
}
