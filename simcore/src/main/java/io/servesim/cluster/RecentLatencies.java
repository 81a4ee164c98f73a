package io.servesim.cluster;

/**
 * Recent TTFT, TPOT and step time per engine id, as a load-aware router's signals {@link Signal#RECENT_TTFT},
 * {@link Signal#RECENT_TPOT} and the step time behind {@link Signal#ESTIMATED_WAIT}: exponentially weighted means
 * (weight {@value #EWMA_WEIGHT} on the newest sample) over completions and steps, the first sample taken as it is.
 */
final class RecentLatencies {
    /** Weight of the newest sample in the recent-latency means. */
    static final double EWMA_WEIGHT = 0.1;

    private final double[] ttftUs;
    private final double[] tpotUs;
    private final double[] stepUs;

    RecentLatencies(int engines) {
        this.ttftUs = new double[engines];
        this.tpotUs = new double[engines];
        this.stepUs = new double[engines];
    }

    /** A request left engine {@code id}. */
    void onCompleted(int id, long ttftUs, double tpotUs) {
        this.ttftUs[id] = next(this.ttftUs[id], ttftUs);
        this.tpotUs[id] = next(this.tpotUs[id], tpotUs);
    }

    /** Engine {@code id} ran a step of {@code stepUs}. */
    void onStep(int id, long stepUs) {
        this.stepUs[id] = next(this.stepUs[id], stepUs);
    }

    private static double next(double mean, double sample) {
        return mean == 0 ? sample : mean + EWMA_WEIGHT * (sample - mean);
    }

    /** Engine {@code id} is gone: the next replica in its slot starts with no history. */
    void clear(int id) {
        ttftUs[id] = 0;
        tpotUs[id] = 0;
        stepUs[id] = 0;
    }

    double ttftUs(int id) {
        return ttftUs[id];
    }

    double tpotUs(int id) {
        return tpotUs[id];
    }

    double stepUs(int id) {
        return stepUs[id];
    }
}
