package io.servesim.plan;

import java.util.HashMap;
import java.util.Map;

/** The outcomes of every probe run so far, by probe ({@link Probe.Key}): what the search decides from. */
public final class Results {
    private final Map<Probe.Key, Outcome> outcomes = new HashMap<>();

    /** Records {@code outcome} as the result of {@code key}. */
    public void put(Probe.Key key, Outcome outcome) {
        outcomes.put(key, outcome);
    }

    /** The outcome of candidate {@code candidate} at {@code rateRps} on {@code requests} requests, or null when not run. */
    public Outcome get(int candidate, double rateRps, int requests) {
        return outcomes.get(new Probe.Key(candidate, rateRps, requests));
    }

    /** Whether {@code key} has run. */
    public boolean has(Probe.Key key) {
        return outcomes.containsKey(key);
    }

    /** Probes whose run failed (an {@code errors/} row). */
    public long failures() {
        return outcomes.values().stream().filter(o -> o.failure() != null).count();
    }

    /** Probes run. */
    public int size() {
        return outcomes.size();
    }
}
