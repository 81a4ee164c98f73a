package io.servesim.workload;

import java.nio.file.Path;

/**
 * Replay of a request trace.
 *
 * @param format          trace format
 * @param path            trace file
 * @param maxRequests     stop after this many requests; 0 = all
 */
public record TraceSpec(TraceFormat format, Path path, long maxRequests) implements WorkloadSpec {
    @Override
    public RequestSource open(long seed, long horizonUs) {
        return format.open(path, maxRequests);
    }
}
