package io.servesim.run;

import io.servesim.cluster.Autoscaler;
import io.servesim.cluster.Fleet;
import io.servesim.cluster.ReplicaState;
import io.servesim.cluster.ScaleCounters;
import io.servesim.metrics.ScalingSummary;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds a run's {@link ScalingSummary}: from the autoscaler, or for a fixed fleet ready from 0 to the end. */
final class ScalingSummaries {
    private ScalingSummaries() {
    }

    static ScalingSummary of(SimSetup setup, Autoscaler autoscaler, long endUs) {
        double endS = endUs / 1e6;
        Map<String, Double> byState = new LinkedHashMap<>();
        double pricePerReplicaHour = setup.autoscaling().usdPerGpuHour() * setup.gpusPerReplica();
        if (autoscaler == null) {
            int n = setup.cluster().instances();
            for (ReplicaState s : Fleet.STATES) {
                byState.put(s.key(), s == ReplicaState.READY ? n * endS : 0.0);
            }
            return new ScalingSummary(false, 0, 0, 0, 0, 0, 0, byState, n * endS / 3600 * pricePerReplicaHour,
                    Double.NaN, Double.NaN, Double.NaN, n, n);
        }
        long[] us = autoscaler.fleet().stateUs(endUs);
        double total = 0;
        for (ReplicaState s : Fleet.STATES) {
            byState.put(s.key(), us[s.ordinal()] / 1e6);
            total += us[s.ordinal()] / 1e6;
        }
        ScaleCounters c = autoscaler.counters();
        return new ScalingSummary(true, c.scaleUps(), c.scaleDowns(), c.clamped(), c.oscillations(), c.rerouted(),
                c.recomputed(), byState, total / 3600 * pricePerReplicaHour, c.timeToReadyMeanUs() / 1e6,
                c.timeToReadyMaxUs() / 1e6, autoscaler.window().sloAttainmentWhileStarting(), autoscaler.fleet().peak(),
                endS == 0 ? 0 : total / endS);
    }
}
