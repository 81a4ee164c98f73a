package io.servesim.policy.routing;

import io.servesim.cluster.ClusterView;
import io.servesim.cluster.Signal;
import java.util.Set;

/**
 * Shared load measure, BLIS's effective load: waiting + running requests as seen (subject to
 * observability) + requests the router sent that have not reached the wait queue yet (router-local,
 * always current). Without the last term a burst herds onto whichever instance looked idle.
 */
final class Load {
    /** What {@link #of} reads. */
    static final Set<Signal> SIGNALS = Set.of(Signal.QUEUE_DEPTH, Signal.RUNNING);
    /** What {@link #leastLoaded} reads (KV utilization breaks ties). */
    static final Set<Signal> LEAST_LOADED_SIGNALS = Set.of(Signal.QUEUE_DEPTH, Signal.RUNNING, Signal.KV_UTILIZATION);

    private Load() {
    }

    static double of(ClusterView v, int i) {
        return v.queueDepth(i) + v.running(i) + v.inTransit(i);
    }

    /** The least loaded instance; ties by lower KV utilization, then lowest id. */
    static int leastLoaded(ClusterView v) {
        return leastLoaded(v, null, null);
    }

    /**
     * {@link #leastLoaded(ClusterView)}, keeping each position's load and KV utilization in
     * {@code loads} and {@code kvs} (for traces) when they are not null.
     */
    static int leastLoaded(ClusterView v, double[] loads, double[] kvs) {
        int best = 0;
        double bestLoad = Double.MAX_VALUE;
        double bestKv = Double.MAX_VALUE;
        for (int i = 0; i < v.instances(); i++) {
            double load = of(v, i);
            double kv = v.kvUtilization(i);
            if (loads != null) {
                loads[i] = load;
                kvs[i] = kv;
            }
            if (load < bestLoad || (load == bestLoad && kv < bestKv)) {
                best = i;
                bestLoad = load;
                bestKv = kv;
            }
        }
        return best;
    }
}
