package io.servesim.cluster;

import io.servesim.engine.Request;
import io.servesim.slo.SloTargets;

/**
 * The windowed signals of the autoscaler: arrivals, completions and SLO-met completions counted
 * per check interval in a ring of {@code ceil(window / check interval)} buckets (so the window
 * slides by whole checks, as a Prometheus {@code rate()} over scrapes does), the mean in-flight
 * load of the last {@value #LOAD_SAMPLES} checks, and SLO attainment of the requests that
 * completed while any replica was starting. O(1) per request, no allocation.
 */
public final class ScaleWindow {
    /** Recent load samples handed to policies. */
    public static final int LOAD_SAMPLES = 8;

    private final SloTargets slo;
    private final double bucketS;
    private final long[] arrivals;
    private final long[] completed;
    private final long[] met;
    private int head;
    private int filled;
    private long curArrivals;
    private long curCompleted;
    private long curMet;
    private final double[] load = new double[LOAD_SAMPLES];
    private int loads;
    private long startingCompleted;
    private long startingMet;

    ScaleWindow(AutoscalingConfig config, SloTargets slo) {
        this.slo = slo;
        this.bucketS = config.checkIntervalUs() / 1e6;
        int buckets = (int) Math.max(1, (config.windowUs() + config.checkIntervalUs() - 1) / config.checkIntervalUs());
        this.arrivals = new long[buckets];
        this.completed = new long[buckets];
        this.met = new long[buckets];
    }

    /** A request reached the cluster. */
    public void onArrival() {
        curArrivals++;
    }

    /** A request left; completed ones count toward SLO attainment (also while {@code anyStarting}). */
    public void onLeft(Request r, boolean anyStarting) {
        if (r.state() != Request.State.COMPLETED) {
            return;
        }
        int out = r.generatedTokens();
        double tpotMs = out > 1 ? (r.completionUs() - r.firstTokenUs()) / 1e3 / (out - 1) : Double.NaN;
        boolean ok = slo.of(r.tags().sloClass()).met((r.firstTokenUs() - r.arrivalUs()) / 1e3, tpotMs,
                (r.completionUs() - r.arrivalUs()) / 1e3);
        curCompleted++;
        if (ok) {
            curMet++;
        }
        if (anyStarting) {
            startingCompleted++;
            if (ok) {
                startingMet++;
            }
        }
    }

    /** At a check: the interval's counts become the newest bucket; {@code avgInFlight} the newest load sample. */
    void closeBucket(double avgInFlight) {
        head = (head + 1) % arrivals.length;
        arrivals[head] = curArrivals;
        completed[head] = curCompleted;
        met[head] = curMet;
        curArrivals = 0;
        curCompleted = 0;
        curMet = 0;
        filled = Math.min(filled + 1, arrivals.length);
        load[loads % LOAD_SAMPLES] = avgInFlight;
        loads++;
    }

    /** Arrivals per second over the filled buckets. */
    double ratePerS(long nowUs) {
        return filled == 0 ? 0 : sum(arrivals) / (filled * bucketS);
    }

    /** Completions meeting their SLO / completions over the window; 1 when none completed. */
    double sloAttainment() {
        long c = sum(completed);
        return c == 0 ? 1 : (double) sum(met) / c;
    }

    private long sum(long[] ring) {
        long s = 0;
        for (int k = 0; k < filled; k++) {
            s += ring[(head - k + ring.length) % ring.length];
        }
        return s;
    }

    /** The last load samples, oldest first. */
    double[] recentLoad() {
        int n = Math.min(loads, LOAD_SAMPLES);
        double[] out = new double[n];
        for (int k = 0; k < n; k++) {
            out[k] = load[(loads - n + k) % LOAD_SAMPLES];
        }
        return out;
    }

    /** SLO attainment of completions while a replica was starting; NaN when there were none. */
    public double sloAttainmentWhileStarting() {
        return startingCompleted == 0 ? Double.NaN : (double) startingMet / startingCompleted;
    }
}
