package io.servesim.plan;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** The outcomes of every probe run so far, by probe ({@link Probe.Key}): what the search decides from. */
public final class Results {
    private final Map<Probe.Key, Outcome> outcomes = new HashMap<>();
    /** Candidates whose runs' latency model is uncalibrated on their GPU (the cells' {@code latency_calibration}). */
    private final Set<Integer> uncalibrated = new HashSet<>();
    /** Each candidate's latency model, as its cells name it. */
    private final Map<Integer, String> latencyModels = new HashMap<>();

    /** Records {@code outcome} as the result of {@code key}. */
    public void put(Probe.Key key, Outcome outcome) {
        outcomes.put(key, outcome);
    }

    /** The outcome of candidate {@code candidate} at {@code rateRps} on {@code requests} requests, or null when not run. */
    public Outcome get(int candidate, double rateRps, int requests) {
        return outcomes.get(new Probe.Key(candidate, rateRps, requests));
    }

    /** Records the latency model candidate {@code candidate}'s runs used (the cells' {@code latency_model}). */
    public void latencyModel(int candidate, String name) {
        latencyModels.put(candidate, name);
    }

    /** The latency model candidate {@code candidate}'s runs used, or null before any ran. */
    public String latencyModel(int candidate) {
        return latencyModels.get(candidate);
    }

    /** Records that candidate {@code candidate}'s latency model is uncalibrated on its GPU. */
    public void uncalibrated(int candidate) {
        uncalibrated.add(candidate);
    }

    /** Whether a run of candidate {@code candidate} had a latency model uncalibrated on its GPU. */
    public boolean isUncalibrated(int candidate) {
        return uncalibrated.contains(candidate);
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
