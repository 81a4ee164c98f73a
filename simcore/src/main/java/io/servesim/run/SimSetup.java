package io.servesim.run;

import io.servesim.cluster.AutoscalingConfig;
import io.servesim.cluster.ClusterConfig;
import io.servesim.disagg.PdSetup;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.FrontEnd;
import io.servesim.latency.LatencyModel;
import io.servesim.metrics.FitnessWeights;
import io.servesim.policy.PolicySpec;
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
 * @param autoscaling replicas coming and going (load time and price settled), or {@link AutoscalingConfig#DISABLED}
 * @param gpusPerReplica GPUs per replica (the TP degree), for cost
 * @param pd         the P/D deployment (its pools replace the fleet of {@code engine} replicas); null for aggregated
 * @param decodeRouting the P/D decode pool's router; null for aggregated
 * @param maxEvents  events a run may process before it stops with a {@link RunLimitException} ({@code max_events})
 * @param frontEnd   the serving front end of every instance ({@link FrontEnd#OFF}: none)
 */
public record SimSetup(EngineConfig engine, LatencyModel latency, ClusterConfig cluster, PolicyBundle policies,
                       SloTargets slo, FitnessWeights fitness, long horizonUs, AutoscalingConfig autoscaling,
                       int gpusPerReplica, PdSetup pd, PolicySpec decodeRouting, long maxEvents, FrontEnd frontEnd) {
    /** A deployment without a serving front end. */
    public SimSetup(EngineConfig engine, LatencyModel latency, ClusterConfig cluster, PolicyBundle policies,
                    SloTargets slo, FitnessWeights fitness, long horizonUs, AutoscalingConfig autoscaling,
                    int gpusPerReplica, PdSetup pd, PolicySpec decodeRouting, long maxEvents) {
        this(engine, latency, cluster, policies, slo, fitness, horizonUs, autoscaling, gpusPerReplica, pd, decodeRouting,
                maxEvents, FrontEnd.OFF);
    }

    /** An aggregated deployment. */
    public SimSetup(EngineConfig engine, LatencyModel latency, ClusterConfig cluster, PolicyBundle policies,
                    SloTargets slo, FitnessWeights fitness, long horizonUs, AutoscalingConfig autoscaling,
                    int gpusPerReplica) {
        this(engine, latency, cluster, policies, slo, fitness, horizonUs, autoscaling, gpusPerReplica, null, null, Long.MAX_VALUE);
    }

    /** A fixed fleet of one-GPU replicas. */
    public SimSetup(EngineConfig engine, LatencyModel latency, ClusterConfig cluster, PolicyBundle policies,
                    SloTargets slo, FitnessWeights fitness, long horizonUs) {
        this(engine, latency, cluster, policies, slo, fitness, horizonUs, AutoscalingConfig.DISABLED, 1);
    }

    /** One instance, default policies, no horizon. */
    public static SimSetup single(EngineConfig engine, LatencyModel latency) {
        return new SimSetup(engine, latency, ClusterConfig.SINGLE, PolicyBundle.DEFAULT, SloTargets.DEFAULT,
                FitnessWeights.NONE, 0);
    }

    public SimSetup withPolicies(PolicyBundle p) {
        return new SimSetup(engine, latency, cluster, p, slo, fitness, horizonUs, autoscaling, gpusPerReplica, pd,
                decodeRouting, maxEvents, frontEnd);
    }

    public SimSetup withCluster(ClusterConfig c) {
        return new SimSetup(engine, latency, c, policies, slo, fitness, horizonUs, autoscaling, gpusPerReplica, pd,
                decodeRouting, maxEvents, frontEnd);
    }

    public SimSetup withHorizonUs(long h) {
        return new SimSetup(engine, latency, cluster, policies, slo, fitness, h, autoscaling, gpusPerReplica, pd,
                decodeRouting, maxEvents, frontEnd);
    }

    public SimSetup withFitness(FitnessWeights f) {
        return new SimSetup(engine, latency, cluster, policies, slo, f, horizonUs, autoscaling, gpusPerReplica, pd,
                decodeRouting, maxEvents, frontEnd);
    }

    /**
     * This setup with the P/D deployment {@code p} whose decode pool {@code decode} routes (its engine and latency are
     * then the decode pool's).
     */
    public SimSetup withPd(PdSetup p, PolicySpec decode) {
        return new SimSetup(engine, latency, cluster.withInstances(p.instances()), policies, slo, fitness, horizonUs,
                autoscaling, gpusPerReplica, p, decode, maxEvents, frontEnd);
    }

    /** GPUs of the deployment: both pools', or instances x TP. */
    public int gpus() {
        return pd != null ? pd.gpus() : cluster.instances() * gpusPerReplica;
    }

    /** This setup stopping after {@code n} events ({@code max_events}). */
    public SimSetup withMaxEvents(long n) {
        return new SimSetup(engine, latency, cluster, policies, slo, fitness, horizonUs, autoscaling, gpusPerReplica, pd,
                decodeRouting, n, frontEnd);
    }

    /** This setup behind the serving front end {@code f}. */
    public SimSetup withFrontEnd(FrontEnd f) {
        return new SimSetup(engine, latency, cluster, policies, slo, fitness, horizonUs, autoscaling, gpusPerReplica, pd,
                decodeRouting, maxEvents, f);
    }

    public SimSetup withAutoscaling(AutoscalingConfig a) {
        return new SimSetup(engine, latency, cluster, policies, slo, fitness, horizonUs, a, gpusPerReplica, pd,
                decodeRouting, maxEvents, frontEnd);
    }
}
