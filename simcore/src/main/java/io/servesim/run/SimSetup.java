package io.servesim.run;

import io.servesim.cluster.AutoscalingConfig;
import io.servesim.cluster.ClusterConfig;
import io.servesim.disagg.PdSetup;
import io.servesim.engine.EngineConfig;
import io.servesim.engine.FrontEnd;
import io.servesim.latency.ExpertParallelStep;
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
 * @param expertParallel the instances as the data-parallel ranks of one expert-parallel MoE deployment stepping in
 *                   lockstep ({@link io.servesim.engine.Lockstep}), priced together by it; null: independent instances
 */
public record SimSetup(EngineConfig engine, LatencyModel latency, ClusterConfig cluster, PolicyBundle policies,
                       SloTargets slo, FitnessWeights fitness, long horizonUs, AutoscalingConfig autoscaling,
                       int gpusPerReplica, PdSetup pd, PolicySpec decodeRouting, long maxEvents, FrontEnd frontEnd,
                       ExpertParallelStep expertParallel) {
    /** One instance, default policies, no horizon. */
    public static SimSetup single(EngineConfig engine, LatencyModel latency) {
        return builder(engine, latency).build();
    }

    /**
     * A setup of {@code engine} instances priced by {@code latency}: one instance, default policies and SLOs, no fitness,
     * horizon, autoscaling, P/D, front end or expert parallelism, one GPU per replica, no event limit, until changed.
     */
    public static Builder builder(EngineConfig engine, LatencyModel latency) {
        return new Builder(engine, latency);
    }

    /** A builder holding this setup, to change some of it. */
    public Builder toBuilder() {
        return builder(engine, latency).cluster(cluster).policies(policies).slo(slo).fitness(fitness).horizonUs(horizonUs)
                .autoscaling(autoscaling).gpusPerReplica(gpusPerReplica).pd(pd, decodeRouting).maxEvents(maxEvents)
                .frontEnd(frontEnd).expertParallel(expertParallel);
    }

    public SimSetup withPolicies(PolicyBundle p) {
        return toBuilder().policies(p).build();
    }

    public SimSetup withCluster(ClusterConfig c) {
        return toBuilder().cluster(c).build();
    }

    public SimSetup withHorizonUs(long h) {
        return toBuilder().horizonUs(h).build();
    }

    /**
     * This setup with the P/D deployment {@code p} whose decode pool {@code decode} routes (its engine and latency are
     * then the decode pool's).
     */
    public SimSetup withPd(PdSetup p, PolicySpec decode) {
        return toBuilder().cluster(cluster.withInstances(p.instances())).pd(p, decode).build();
    }

    /** GPUs of the deployment: both pools', or instances x TP. */
    public int gpus() {
        return pd != null ? pd.gpus() : cluster.instances() * gpusPerReplica;
    }

    /** This setup stopping after {@code n} events ({@code max_events}). */
    public SimSetup withMaxEvents(long n) {
        return toBuilder().maxEvents(n).build();
    }

    /** This setup behind the serving front end {@code f}. */
    public SimSetup withFrontEnd(FrontEnd f) {
        return toBuilder().frontEnd(f).build();
    }

    /** This setup with every instance priced by {@code l}. */
    public SimSetup withLatency(LatencyModel l) {
        return toBuilder().latency(l).build();
    }

    /** This setup's instances as the lockstep ranks of one expert-parallel deployment priced by {@code ep}. */
    public SimSetup withExpertParallel(ExpertParallelStep ep) {
        return toBuilder().expertParallel(ep).build();
    }

    public SimSetup withAutoscaling(AutoscalingConfig a) {
        return toBuilder().autoscaling(a).build();
    }

    /** Collects a setup's parts by name; each part has the default {@link #builder} names until set. */
    public static final class Builder {
        private EngineConfig engine;
        private LatencyModel latency;
        private ClusterConfig cluster = ClusterConfig.SINGLE;
        private PolicyBundle policies = PolicyBundle.DEFAULT;
        private SloTargets slo = SloTargets.DEFAULT;
        private FitnessWeights fitness = FitnessWeights.NONE;
        private long horizonUs;
        private AutoscalingConfig autoscaling = AutoscalingConfig.DISABLED;
        private int gpusPerReplica = 1;
        private PdSetup pd;
        private PolicySpec decodeRouting;
        private long maxEvents = Long.MAX_VALUE;
        private FrontEnd frontEnd = FrontEnd.OFF;
        private ExpertParallelStep expertParallel;

        private Builder(EngineConfig engine, LatencyModel latency) {
            this.engine = engine;
            this.latency = latency;
        }

        public Builder engine(EngineConfig e) {
            this.engine = e;
            return this;
        }

        public Builder latency(LatencyModel l) {
            this.latency = l;
            return this;
        }

        public Builder cluster(ClusterConfig c) {
            this.cluster = c;
            return this;
        }

        public Builder policies(PolicyBundle p) {
            this.policies = p;
            return this;
        }

        public Builder slo(SloTargets s) {
            this.slo = s;
            return this;
        }

        public Builder fitness(FitnessWeights f) {
            this.fitness = f;
            return this;
        }

        public Builder horizonUs(long h) {
            this.horizonUs = h;
            return this;
        }

        public Builder autoscaling(AutoscalingConfig a) {
            this.autoscaling = a;
            return this;
        }

        public Builder gpusPerReplica(int n) {
            this.gpusPerReplica = n;
            return this;
        }

        /** The P/D deployment and its decode pool's router (both null: aggregated). */
        public Builder pd(PdSetup p, PolicySpec decode) {
            this.pd = p;
            this.decodeRouting = decode;
            return this;
        }

        public Builder maxEvents(long n) {
            this.maxEvents = n;
            return this;
        }

        public Builder frontEnd(FrontEnd f) {
            this.frontEnd = f;
            return this;
        }

        public Builder expertParallel(ExpertParallelStep ep) {
            this.expertParallel = ep;
            return this;
        }

        public SimSetup build() {
            return new SimSetup(engine, latency, cluster, policies, slo, fitness, horizonUs, autoscaling, gpusPerReplica,
                    pd, decodeRouting, maxEvents, frontEnd, expertParallel);
        }
    }
}
