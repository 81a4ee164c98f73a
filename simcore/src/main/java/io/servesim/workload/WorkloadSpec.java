package io.servesim.workload;

/** A bound {@code workload:} section: a synthetic generator or a trace to replay. */
public sealed interface WorkloadSpec permits SyntheticSpec, TraceSpec {
}
