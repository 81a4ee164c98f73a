package io.servesim.workload.trace;

import java.util.List;
import java.util.Locale;

/**
 * How a trace is replayed (NVIDIA Dynamo mocker replay's two modes).
 * <ul>
 *   <li>{@code trace}: open loop at the trace's timestamps, normalised so the first row arrives at
 *       0 and gaps divided by {@code arrival_speedup_ratio} (2 = twice as fast); a session's follow-up
 *       turn is released its delay (divided by the ratio too) after the previous turn completes
 *       ({@link TraceReplaySource}).</li>
 *   <li>{@code concurrency}: closed loop, ignoring timestamps: {@code max_in_flight} requests are
 *       resident; whenever one leaves, the next row arrives at that moment. A follow-up turn of a
 *       session becomes eligible only when the session's previous turn completes, plus its delay.</li>
 * </ul>
 */
public enum ReplayMode {
    TRACE, CONCURRENCY;

    public static final List<String> NAMES = List.of("trace", "concurrency");

    /** The mode called {@code name} (one of {@link #NAMES}). */
    public static ReplayMode of(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
