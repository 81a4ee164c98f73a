package io.servesim.cluster;

import io.servesim.engine.Engine;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The signals read under periodic observability ({@link Observability.Kind#PERIODIC}): the values captured per engine
 * id at the last scrape of each signal's interval, which the control plane sees until the next one (the prefix
 * signals' block events are applied at their scrape instead, by {@link PrefixIndexes}).
 */
final class ScrapedSignals {
    /** What a signal reads live at an engine. */
    interface Live {
        double value(Signal s, int id);
    }

    private final Observability observability;
    /** Per signal ordinal: read from the last scrape (one array read per value, not a map lookup). */
    private final boolean[] periodic;
    private final double[][] values;

    ScrapedSignals(Observability observability, int engines) {
        this.observability = observability;
        this.periodic = new boolean[Signal.all().length];
        for (Signal s : Signal.all()) {
            periodic[s.ordinal()] = observability.mode(s).kind() == Observability.Kind.PERIODIC;
        }
        this.values = new double[Signal.all().length][engines];
    }

    /** Whether the signal of ordinal {@code signal} is read from the last scrape. */
    boolean periodic(int signal) {
        return periodic[signal];
    }

    /** The scraped values of the signal of ordinal {@code signal} by engine id, or null when it is read live. */
    double[] values(int signal) {
        return periodic[signal] ? values[signal] : null;
    }

    /** The value of {@code signal} engine {@code id} had at its last scrape. */
    double value(int signal, int id) {
        return values[signal][id];
    }

    /** Engine {@code id} is gone: nothing it reported stays visible to the next replica in its slot. */
    void clear(int id) {
        for (double[] v : values) {
            v[id] = 0;
        }
    }

    /**
     * A scrape: every periodic signal whose interval is {@code intervalUs} captures {@code live}'s value at each
     * engine of {@code engines} (a free slot is null); the prefix signals apply their buffered block events.
     */
    void scrape(long intervalUs, Engine[] engines, Live live, PrefixIndexes prefixes) {
        for (Signal s : Signal.all()) {
            Observability.Mode m = observability.mode(s);
            if (m.kind() != Observability.Kind.PERIODIC || m.intervalUs() != intervalUs) {
                continue;
            }
            if (s == Signal.PREFIX_CACHE || s == Signal.CPU_PREFIX_CACHE) {
                prefixes.applyPending(s);
                continue;
            }
            for (int id = 0; id < engines.length; id++) {
                if (engines[id] != null) {
                    values[s.ordinal()][id] = live.value(s, id);
                }
            }
        }
    }

    /** Distinct scrape intervals of the periodic signals (each drives one recurring scrape). */
    List<Long> intervals() {
        List<Long> out = new ArrayList<>();
        for (Signal s : Signal.all()) {
            Observability.Mode m = observability.mode(s);
            if (m.kind() == Observability.Kind.PERIODIC && !out.contains(m.intervalUs())) {
                out.add(m.intervalUs());
            }
        }
        return out;
    }

    /** Latency a routing decision pays to pull the on-demand signals among {@code read} (the largest); 0 for none. */
    long onDemandLatencyUs(Set<Signal> read) {
        long max = 0;
        for (Signal s : read) {
            Observability.Mode m = observability.mode(s);
            if (m.kind() == Observability.Kind.ON_DEMAND) {
                max = Math.max(max, m.latencyUs());
            }
        }
        return max;
    }
}
