package io.servesim.workload;

/**
 * One stage of a staged load ({@code workload.stages[]}), as inference-perf runs its load stages
 * (kubernetes-sigs/inference-perf @ 7de5ef2e, {@code inference_perf/loadgen/load_generator.py} {@code mp_run} and
 * {@code run_stage}): the clients send at {@code rateRps} (shared by their rate fractions) for {@code durationUs},
 * then the stage drains (every request it sent, follow-up turns and agentic steps included, has left) before the
 * next one starts, after the workload's {@code stage_interval_us}.
 *
 * @param rateRps     arrivals (sessions) per second across the clients during the stage
 * @param durationUs  how long the stage sends, microseconds
 */
public record Stage(double rateRps, long durationUs) {
}
