package io.servesim.latency;

import java.util.Arrays;

/**
 * A measured curve y(x) over sorted sample points, read the way casys-kaist/LLMServingSim's
 * {@code serving/core/trace_generator.py} reads its profile tables ({@code _axis_bracket},
 * {@code _lookup_1d}):
 * <ul>
 *   <li>between two samples: linear interpolation (LLMServingSim's leave-one-out check found linear
 *       blending 3-4x more accurate than log-space blending on its doubling grids);</li>
 *   <li>below the first sample: the first sample's value (clamped);</li>
 *   <li>above the last sample: linear extrapolation from the last two samples.</li>
 * </ul>
 * The samples are made non-decreasing on construction (each value is raised to the running maximum
 * of the values before it): more work never takes less GPU time, and the dips in measured tables
 * are timing noise (e.g. the RTX PRO 6000 lm_head row: 714 us for 1 sequence, 687 us for 2). This
 * also makes the extrapolation slope non-negative, so the curve is non-decreasing everywhere.
 */
public final class PiecewiseLinear {
    private final double[] xs;
    private final double[] ys;

    /**
     * @param xs sample points, strictly increasing, at least one
     * @param ys measured values at {@code xs}
     */
    public PiecewiseLinear(double[] xs, double[] ys) {
        if (xs.length == 0 || xs.length != ys.length) {
            throw new IllegalArgumentException("need as many values as sample points, and at least one");
        }
        for (int i = 1; i < xs.length; i++) {
            if (!(xs[i] > xs[i - 1])) {
                throw new IllegalArgumentException("sample points must increase strictly: " + xs[i - 1] + ", " + xs[i]);
            }
        }
        this.xs = xs.clone();
        this.ys = ys.clone();
        for (int i = 1; i < this.ys.length; i++) {
            this.ys[i] = Math.max(this.ys[i], this.ys[i - 1]);
        }
    }

    /** The curve at {@code x}. */
    public double at(double x) {
        int n = xs.length;
        if (n == 1 || x <= xs[0]) {
            return ys[0];
        }
        int hi = Arrays.binarySearch(xs, x);
        if (hi >= 0) {
            return ys[hi];
        }
        hi = -hi - 1;
        if (hi >= n) {
            hi = n - 1;
        }
        int lo = hi - 1;
        return ys[lo] + (x - xs[lo]) / (xs[hi] - xs[lo]) * (ys[hi] - ys[lo]);
    }
}
