package io.servesim.plan;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The rates a capacity search may try: {@code anchor + j x tolerance} for integer j, positive and at most
 * {@code max}. Searching a grid rather than halving an interval to a width makes a capacity exact on the grid: the
 * highest grid rate meeting every SLO, found with the same answer however many rates a round tries, and comparable
 * between candidates (more replicas never sustain a lower grid rate). A plan anchors its grid at the target rate, so
 * the target is on it; a capacity search of one config at 0.
 *
 * @param anchorRps    the rate of index 0
 * @param toleranceRps the step
 * @param maxRps       the highest rate tried
 */
public record RateGrid(double anchorRps, double toleranceRps, double maxRps) {
    public RateGrid {
        if (!(toleranceRps > 0) || !(anchorRps >= 0) || !(maxRps >= anchorRps)) {
            throw new IllegalArgumentException("bad rate grid " + anchorRps + " + j x " + toleranceRps + " <= " + maxRps);
        }
    }

    /** The rate of index {@code j}, rounded to 1e-6 requests per second (so it prints and compares as written). */
    public double rate(long j) {
        return BigDecimal.valueOf(anchorRps + j * toleranceRps).setScale(6, RoundingMode.HALF_EVEN).doubleValue();
    }

    /** The highest index whose rate is at most {@code max}. */
    public long maxIndex() {
        return (long) Math.floor((maxRps - anchorRps) / toleranceRps + 1e-9);
    }

    /** The lowest index whose rate is positive. */
    public long minIndex() {
        return (long) Math.floor(-anchorRps / toleranceRps + 1e-9) + 1;
    }

    /** The lowest index whose rate is at least {@code rateRps} (clamped to the grid). */
    public long indexAtLeast(double rateRps) {
        long j = (long) Math.ceil((rateRps - anchorRps) / toleranceRps - 1e-9);
        return Math.max(minIndex(), Math.min(maxIndex(), j));
    }
}
