package io.servesim.workload;

import io.servesim.config.ConfigNode;
import io.servesim.config.ReadFailure;
import io.servesim.workload.trace.MooncakeTraceReader;
import io.servesim.workload.trace.ReplayMode;
import io.servesim.workload.trace.TraceFormat;
import io.servesim.workload.trace.TraceHead;
import java.nio.file.Path;
import java.util.List;

/**
 * Binds {@code trace: {format, path, mode, arrival_speedup_ratio, max_in_flight, skip_bad_lines,
 * max_requests}} ({@link TraceSettings}). {@code path} is relative to the config's directory.
 * {@code arrival_speedup_ratio} applies to trace mode only; {@code max_in_flight} is required in
 * concurrency mode and only allowed there. A Mooncake trace's first lines are read for keys its reader would skip
 * unread (a misspelt {@code delay}), each a warning.
 */
public final class TraceBinder {
    private TraceBinder() {
    }

    /** The trace spec, or null when invalid. */
    public static TraceSpec bind(ConfigNode t, Path baseDir) {
        if (!t.present()) {
            return null; // given but not a mapping: already reported
        }
        String format = t.get(TraceSettings.FORMAT);
        if (!t.has(TraceSettings.FORMAT.key())) {
            t.problem(t.pathOf("format"), "required; valid: " + String.join(", ", TraceFormat.names()));
        }
        String file = t.get(TraceSettings.PATH);
        ReplayMode mode = ReplayMode.of(t.get(TraceSettings.MODE));
        double speedup = t.get(TraceSettings.ARRIVAL_SPEEDUP_RATIO);
        Long maxInFlight = t.get(TraceSettings.MAX_IN_FLIGHT);
        boolean skip = t.get(TraceSettings.SKIP_BAD_LINES);
        long maxRequests = t.get(TraceSettings.MAX_REQUESTS);
        t.finish();
        if (mode == ReplayMode.TRACE) {
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
        if (file == null && !t.has(TraceSettings.PATH.key())) {
            t.problem(t.pathOf("path"), "required: the trace file");
        } else if (file != null) {
            p = baseDir.resolve(file).normalize();
            String unreadable = ReadFailure.unreadable(p);
            if (unreadable != null) {
                t.problem(t.pathOf("path"), "trace file " + p + ": " + unreadable);
            }
        }
        if (format == null || p == null || t.hasProblems()) {
            return null;
        }
        int resident = maxInFlight == null ? 0 : Math.toIntExact(maxInFlight); // 0: trace mode, where it is not given
        TraceFormat f = TraceFormat.of(format);
        List<String> warnings = f != TraceFormat.MOONCAKE ? List.of()
                : MooncakeTraceReader.ignoredKeys(p, TraceHead.DEFAULT_LINES).stream()
                        .map(m -> t.pathOf("path") + ": " + m).toList();
        return new TraceSpec(f, p, mode, speedup, resident, skip, maxRequests, warnings);
    }
}
