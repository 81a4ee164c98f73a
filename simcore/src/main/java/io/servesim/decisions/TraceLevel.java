package io.servesim.decisions;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How much of a run's decision-making is recorded (BLIS macro plan, PR 17 {@code --trace-level}:
 * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}):
 * {@link #NONE} records nothing and allocates nothing per event; {@link #DECISIONS} records every
 * admission, priority, routing and preemption decision with its time, request, outcome and reason;
 * {@link #DETAILED} adds the snapshot values a routing policy saw (per-instance load, KV utilization,
 * prefix overlap and score components).
 */
public enum TraceLevel {
    NONE, DECISIONS, DETAILED;

    /** The level's name as configs and flags spell it ({@code none}, {@code decisions}, {@code detailed}). */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Every valid spelling, comma-separated, for error messages. */
    public static String choices() {
        return Arrays.stream(values()).map(TraceLevel::key).collect(Collectors.joining(", "));
    }

    /** The level spelled {@code key}; throws {@link IllegalArgumentException} listing the choices. */
    public static TraceLevel of(String key) {
        for (TraceLevel l : values()) {
            if (l.key().equals(key)) {
                return l;
            }
        }
        throw new IllegalArgumentException("unknown trace level '" + key + "'; valid: " + choices());
    }
}
