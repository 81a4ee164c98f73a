package io.servesim.run;

import io.servesim.cluster.Autoscaler;
import io.servesim.cluster.Fleet;
import io.servesim.cluster.ReplicaState;
import io.servesim.cluster.ScaleCounters;
import io.servesim.metrics.ReplicaCounts;
import io.servesim.metrics.ScalingSummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds a run's {@link ScalingSummary}: from the autoscaler, or for a fixed fleet ready from 0 to the end. */
final class ScalingSummaries {
    private static final int WIDTH = Fleet.STATES.length + 1;

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
            double usdPerHour = setup.pd() != null ? setup.pd().usdPerHour() : n * pricePerReplicaHour;
            return new ScalingSummary(false, 0, 0, 0, 0, 0, 0, byState, endS / 3600 * usdPerHour,
                    Double.NaN, Double.NaN, Double.NaN, n, n, closed(List.of(new ReplicaCounts(0, 0, 0, 0, n, 0)), endUs));
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
                endS == 0 ? 0 : total / endS, closed(rows(autoscaler.fleet().timeline()), endUs));
    }

    /** {@link Fleet#timeline()}'s flattened rows (time, then one count per state in ordinal order) as records. */
    private static List<ReplicaCounts> rows(long[] flat) {
        List<ReplicaCounts> out = new ArrayList<>(flat.length / WIDTH + 1);
        for (int at = 0; at < flat.length; at += WIDTH) {
            out.add(new ReplicaCounts(flat[at], count(flat, at, ReplicaState.PROVISIONING),
                    count(flat, at, ReplicaState.LOADING), count(flat, at, ReplicaState.WARMING),
                    count(flat, at, ReplicaState.READY), count(flat, at, ReplicaState.DRAINING)));
        }
        return out;
    }

    private static int count(long[] flat, int rowStart, ReplicaState s) {
        return (int) flat[rowStart + 1 + s.ordinal()];
    }

    /** {@code rows} with a last row at {@code endUs} (the counts held at the end), unless one is already there. */
    private static List<ReplicaCounts> closed(List<ReplicaCounts> rows, long endUs) {
        ReplicaCounts last = rows.get(rows.size() - 1);
        if (last.timeUs() == endUs) {
            return rows;
        }
        List<ReplicaCounts> out = new ArrayList<>(rows);
        out.add(last.at(endUs));
        return out;
    }
}
