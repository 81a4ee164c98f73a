package io.servesim.run;

import io.servesim.cluster.AutoscalingConfig;
import io.servesim.cluster.ClusterConfig;
import io.servesim.disagg.PdSpec;
import io.servesim.engine.EngineConfig;
import io.servesim.latency.LatencySpec;
import io.servesim.metrics.FitnessWeights;
import io.servesim.policy.PolicySpec;
import io.servesim.slo.SloTargets;
import io.servesim.workload.WorkloadSpec;

/**
 * One simulation, bound once from YAML and validated; nothing reads raw maps after this.
 *
 * @param seed       master seed of all partitioned random streams
 * @param horizonUs  simulated time limit; 0 = run until every request has left
 * @param latency    {@code deployment:} model, GPU, TP and latency model
 * @param engine     {@code engine:} vLLM limits and KV cache
 * @param cluster    {@code deployment.instances} and {@code cluster:} (control-plane latencies, observability)
 * @param policies   {@code policies:} admission, priority, routing, scheduler
 * @param slo        {@code slo:} per-class targets
 * @param fitness    {@code fitness_weights}
 * @param workload   {@code workload:}
 * @param autoscaling {@code autoscaling:} (load time and price not yet settled)
 * @param pd         {@code deployment.pd} with {@code deployment.architecture: pd}; null for aggregated
 * @param decodeRouting {@code deployment.pd.decode_routing}, the decode pool's router ({@link DecodeRouting}); null
 *                      for aggregated
 * @param maxEvents  {@code max_events}: events a run may process before it stops with a {@link RunLimitException}
 * @param frontEnd   {@code frontend:} the serving front end (whether it is on may still depend on the latency model)
 */
public record SimConfig(long seed, long horizonUs, LatencySpec latency, EngineConfig engine, ClusterConfig cluster,
                        PolicyBundle policies, SloTargets slo, FitnessWeights fitness, WorkloadSpec workload,
                        AutoscalingConfig autoscaling, PdSpec pd, PolicySpec decodeRouting, long maxEvents,
                        io.servesim.engine.FrontEndSettings.Bound frontEnd) {
}
