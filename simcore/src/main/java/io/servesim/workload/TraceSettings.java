package io.servesim.workload;

import io.servesim.config.Setting;
import io.servesim.config.ValueType;
import io.servesim.workload.trace.ReplayMode;
import io.servesim.workload.trace.TraceFormat;
import java.util.List;

/**
 * The settings of a trace replay ({@code workload.trace}, {@link TraceBinder}): the file and its format (the Azure LLM
 * inference trace 2023, Mooncake's JSONL, vLLM's benchmark JSONL, or plain CSV; {@link TraceFormat}) and how it is
 * replayed, in NVIDIA Dynamo mocker replay's two modes ({@link ReplayMode}).
 */
public final class TraceSettings {
    public static final Setting<String> FORMAT = Setting.derived("workload.trace.format",
            ValueType.choice(TraceFormat.names()), "required", "The trace's format (its reader).");
    public static final Setting<String> PATH = Setting.derived("workload.trace.path", ValueType.text(), "required",
            "The trace file, relative to the config's directory.");
    public static final Setting<String> MODE = Setting.of("workload.trace.mode", ValueType.choice(ReplayMode.NAMES),
            "trace",
            "trace: open loop at the trace's timestamps, a session's follow-up turn released its delay after the previous"
                    + " turn completes; concurrency: closed loop of max_in_flight resident requests, ignoring timestamps.");
    public static final Setting<Double> ARRIVAL_SPEEDUP_RATIO = Setting.of("workload.trace.arrival_speedup_ratio",
            ValueType.real(0, 1e4).above().in("", "10^4 times compresses a day of trace into under 9 s"), 1.0,
            "Trace mode only: the trace's gaps, and the delays of follow-up turns, are divided by this (2: twice as"
                    + " fast).");
    public static final Setting<Long> MAX_IN_FLIGHT = Setting.derived("workload.trace.max_in_flight",
            ValueType.integer(1, 1 << 20).in("requests", "2^20 resident requests is more than any benchmark client keeps"
                    + " in flight"),
            "required in concurrency mode (only there)", "Concurrency mode: requests kept resident.");
    public static final Setting<Boolean> SKIP_BAD_LINES = Setting.of("workload.trace.skip_bad_lines", ValueType.bool(),
            false, "Skip malformed trace lines (counted in the summary) instead of stopping at the first.")
            .flag("--skip-bad-lines");
    public static final Setting<Long> MAX_REQUESTS = Setting.of("workload.trace.max_requests",
            ValueType.integer(0, Long.MAX_VALUE).in("requests", null), 0L,
            "Replay only the trace's first N requests; 0: all. --num-requests sets it for a trace replay.");

    /** Every trace setting, in documentation order. */
    public static final List<Setting<?>> ALL = List.of(FORMAT, PATH, MODE, ARRIVAL_SPEEDUP_RATIO, MAX_IN_FLIGHT,
            SKIP_BAD_LINES, MAX_REQUESTS);

    private TraceSettings() {
    }
}
