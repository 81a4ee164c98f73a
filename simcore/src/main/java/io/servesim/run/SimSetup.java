package io.servesim.run;

import io.servesim.cluster.ClusterConfig;
import io.servesim.engine.EngineConfig;
import io.servesim.latency.LatencyModel;
import io.servesim.metrics.FitnessWeights;
import io.servesim.slo.SloTargets;

/**
 * Everything a {@link Simulation} needs besides its request source and record sink, fully
 * resolved (by {@link RunPlan} from a config, or directly by tests).
 *
 * @param engine     engine limits of every instance
 * @param latency    step-time model shared by the instances
 * @param cluster    instances, control-plane latencies, observability
 * @param policies   admission, priority, routing, scheduler
 * @param slo        per-class SLO targets
 * @param fitness    fitness weights (may be empty)
 * @param horizonUs  simulated time limit; 0 = until drained
 */
public record SimSetup(EngineConfig engine, LatencyModel latency, ClusterConfig cluster, PolicyBundle policies,
                       SloTargets slo, FitnessWeights fitness, long horizonUs) {
    /** One instance, default policies, no horizon. */
    public static SimSetup single(EngineConfig engine, LatencyModel latency) {
        return new SimSetup(engine, latency, ClusterConfig.SINGLE, PolicyBundle.DEFAULT, SloTargets.DEFAULT,
                FitnessWeights.NONE, 0);
    }

    public SimSetup withPolicies(PolicyBundle p) {
        return new SimSetup(engine, latency, cluster, p, slo, fitness, horizonUs);
    }

    public SimSetup withCluster(ClusterConfig c) {
        return new SimSetup(engine, latency, c, policies, slo, fitness, horizonUs);
    }

    public SimSetup withHorizonUs(long h) {
        return new SimSetup(engine, latency, cluster, policies, slo, fitness, h);
    }

    public SimSetup withFitness(FitnessWeights f) {
        return new SimSetup(engine, latency, cluster, policies, slo, f, horizonUs);
    }
}
