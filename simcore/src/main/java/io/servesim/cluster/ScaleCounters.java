package io.servesim.cluster;

import io.servesim.engine.Engine;
import io.servesim.engine.EngineTotals;

/**
 * Counts of the autoscaler's actions and of the engines it retired (whose KV and step statistics
 * must still reach the run's totals): scale-ups and -downs (one per replica), clamped decisions,
 * oscillations (an action reversing the previous one within the oscillation window), requests
 * moved and recomputed by drains, and time from a scale-up decision to READY.
 */
public final class ScaleCounters {
    private final long oscillationWindowUs;
    long scaleUps;
    long scaleDowns;
    long clamped;
    long oscillations;
    long rerouted;
    long recomputed;
    private long lastActionUs = -1;
    private boolean lastUp;
    private long readyCount;
    private long readySumUs;
    private long readyMaxUs;
    /** The retired engines' counters (KV tiers, preempted readmissions' hits, preemptions, ...). */
    private final EngineTotals retired = new EngineTotals();

    ScaleCounters(long oscillationWindowUs) {
        this.oscillationWindowUs = oscillationWindowUs;
    }

    void onAction(boolean up, long nowUs) {
        if (lastActionUs >= 0 && up != lastUp && nowUs - lastActionUs <= oscillationWindowUs) {
            oscillations++;
        }
        lastActionUs = nowUs;
        lastUp = up;
    }

    long sinceLastActionUs(long nowUs) {
        return lastActionUs < 0 ? Long.MAX_VALUE : nowUs - lastActionUs;
    }

    void onReady(long sinceDecisionUs) {
        readyCount++;
        readySumUs += sinceDecisionUs;
        readyMaxUs = Math.max(readyMaxUs, sinceDecisionUs);
    }

    void retired(Engine e) {
        if (e == null) {
            return;
        }
        retired.add(e);
    }

    public long scaleUps() { return scaleUps; }
    public long scaleDowns() { return scaleDowns; }
    /** Decisions outside [min, max] (or a scale-up short of free slots), clamped. */
    public long clamped() { return clamped; }
    public long oscillations() { return oscillations; }
    /** Requests moved to another replica by a drain. */
    public long rerouted() { return rerouted; }
    /** Requests restarted from their prompt by an immediate drain. */
    public long recomputed() { return recomputed; }
    /** Mean scale-up decision to READY, us; NaN when no replica became ready. */
    public double timeToReadyMeanUs() { return readyCount == 0 ? Double.NaN : (double) readySumUs / readyCount; }
    public double timeToReadyMaxUs() { return readyCount == 0 ? Double.NaN : readyMaxUs; }
    /** Every per-engine counter of the retired engines, summed. */
    public EngineTotals retired() { return retired; }
}
