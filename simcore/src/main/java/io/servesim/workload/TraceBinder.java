package io.servesim.workload;

import io.servesim.config.ConfigNode;
import io.servesim.config.ReadFailure;
import io.servesim.workload.trace.ReplayMode;
import io.servesim.workload.trace.TraceFormat;
import java.nio.file.Path;

/**
 * Binds {@code trace: {format, path, mode, arrival_speedup_ratio, max_in_flight, skip_bad_lines,
 * max_requests}}. {@code path} is relative to the config's directory. {@code arrival_speedup_ratio}
 * (default 1) applies to trace mode only; {@code max_in_flight} is required in concurrency mode and
 * only allowed there.
 */
public final class TraceBinder {
    private TraceBinder() {
    }

    /** The trace spec, or null when invalid. */
    public static TraceSpec bind(ConfigNode t, Path baseDir) {
        if (!t.present()) {
            return null; // given but not a mapping: already reported
        }
        String format = t.choice("format", null, TraceFormat.names());
        if (!t.has("format")) {
            t.problem(t.pathOf("format"), "required; valid: " + String.join(", ", TraceFormat.names()));
        }
        String file = t.stringValue("path", null);
        ReplayMode mode = ReplayMode.of(t.choice("mode", "trace", ReplayMode.NAMES));
        double speedup = t.doubleValue("arrival_speedup_ratio", 1.0, -Double.MAX_VALUE, Double.MAX_VALUE);
        int maxInFlight = t.intValue("max_in_flight", 0, 1, Integer.MAX_VALUE);
        boolean skip = t.boolValue("skip_bad_lines", false);
        long maxRequests = t.longValue("max_requests", 0, 0, Long.MAX_VALUE);
        t.finish();
        if (mode == ReplayMode.TRACE) {
            if (!(speedup > 0)) {
                t.problem(t.pathOf("arrival_speedup_ratio"), "must be > 0");
            }
            if (t.has("max_in_flight")) {
                t.problem(t.pathOf("max_in_flight"), "only for mode: concurrency");
            }
        } else {
            if (t.has("arrival_speedup_ratio")) {
                t.problem(t.pathOf("arrival_speedup_ratio"), "only for mode: trace (concurrency mode ignores timestamps)");
            }
            if (!t.has("max_in_flight")) {
                t.problem(t.pathOf("max_in_flight"), "required for mode: concurrency (requests kept resident)");
            }
        }
        Path p = null;
        if (file == null) {
            t.problem(t.pathOf("path"), "required: the trace file");
        } else {
            p = baseDir.resolve(file).normalize();
            String unreadable = ReadFailure.unreadable(p);
            if (unreadable != null) {
                t.problem(t.pathOf("path"), "trace file " + p + ": " + unreadable);
            }
        }
        if (format == null || p == null || t.hasProblems()) {
            return null;
        }
        return new TraceSpec(TraceFormat.of(format), p, mode, speedup, maxInFlight, skip, maxRequests);
    }
}
