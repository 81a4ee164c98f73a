package io.servesim.workload;

import io.servesim.workload.trace.ConcurrencyReplaySource;
import io.servesim.workload.trace.ReplayMode;
import io.servesim.workload.trace.TraceFormat;
import io.servesim.workload.trace.TraceReader;
import io.servesim.workload.trace.TraceReplaySource;
import java.nio.file.Path;
import java.util.List;

/**
 * Replay of a request trace ({@code workload: {trace: {...}}}), in trace or concurrency mode
 * (see {@link ReplayMode}).
 *
 * @param format        trace format (reader)
 * @param path          trace file
 * @param mode          trace (timestamps) or concurrency (closed loop)
 * @param speedupRatio  trace mode: gaps are divided by this (2 = twice as fast)
 * @param maxInFlight   concurrency mode: requests kept resident
 * @param skipBadLines  skip (and count) malformed lines instead of stopping
 * @param maxRequests   stop after this many requests; 0 = all
 * @param warnings      non-fatal notes from binding, each naming its config path (a Mooncake key the reader ignores)
 */
public record TraceSpec(TraceFormat format, Path path, ReplayMode mode, double speedupRatio, int maxInFlight,
                        boolean skipBadLines, long maxRequests, List<String> warnings) implements WorkloadSpec {
    public TraceSpec {
        warnings = List.copyOf(warnings);
    }

    /** A spec without warnings. */
    public TraceSpec(TraceFormat format, Path path, ReplayMode mode, double speedupRatio, int maxInFlight,
                     boolean skipBadLines, long maxRequests) {
        this(format, path, mode, speedupRatio, maxInFlight, skipBadLines, maxRequests, List.of());
    }

    /** This spec with {@code warnings} in place of its own. */
    public TraceSpec withWarnings(List<String> warnings) {
        return new TraceSpec(format, path, mode, speedupRatio, maxInFlight, skipBadLines, maxRequests, warnings);
    }

    @Override
    public RequestSource open(long seed, long horizonUs) {
        TraceReader reader = format.open(path, new TraceReader.Options(skipBadLines, mode == ReplayMode.TRACE));
        return mode == ReplayMode.TRACE
                ? new TraceReplaySource(reader, speedupRatio, maxRequests, horizonUs)
                : new ConcurrencyReplaySource(reader, maxInFlight, maxRequests);
    }

    @Override
    public int blockSizeMustDivide() {
        return format.blockTokens();
    }
}
