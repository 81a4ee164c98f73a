package io.servesim.config;

import io.servesim.latency.LatencySpec;
import io.servesim.policy.PolicySpec;
import io.servesim.workload.WorkloadSpec;

/**
 * One simulation, bound once from YAML and validated; nothing reads raw maps after this.
 *
 * @param seed       master seed of all partitioned random streams
 * @param horizonUs  simulated time limit; 0 = run until every request has left
 * @param latency    {@code deployment:} model, GPU, TP and latency model
 * @param engine     {@code engine:} vLLM limits and KV cache
 * @param scheduler  {@code policies.scheduler}
 * @param priority   {@code policies.priority}
 * @param workload   {@code workload:}
 */
public record SimConfig(long seed, long horizonUs, LatencySpec latency, EngineSpec engine, PolicySpec scheduler,
                        PolicySpec priority, WorkloadSpec workload) {
}
