package io.servesim.workload.arrival;

import java.util.SplittableRandom;

/**
 * A client's arrival process at a fixed mean rate: the time of the next arrival after a given
 * time. Times are microseconds in double precision; callers accumulate them unrounded and round
 * each arrival separately, so the realised rate has no rounding drift.
 */
@FunctionalInterface
public interface ArrivalProcess {
    /** The next arrival strictly after {@code afterUs} (for renewal processes: {@code afterUs} + one gap). */
    double nextUs(double afterUs, SplittableRandom rng);
}
