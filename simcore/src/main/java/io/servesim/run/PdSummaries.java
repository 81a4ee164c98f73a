package io.servesim.run;

import io.servesim.disagg.PdCoordinator;
import io.servesim.disagg.PdSetup;
import io.servesim.disagg.PdStats;
import io.servesim.disagg.PoolSetup;
import io.servesim.metrics.Distribution;
import io.servesim.metrics.PdSummary;
import io.servesim.metrics.Percentiles;
import io.servesim.metrics.ScalingSummary;

/** Builds a run's {@link PdSummary}: the GPU count of an aggregated fleet, or a P/D run's pools and transfers. */
final class PdSummaries {
    private PdSummaries() {
    }

    /** With {@code scaling} the run's autoscaling summary: an autoscaled fleet's GPUs are its peak and mean replicas x TP. */
    static PdSummary of(SimSetup setup, PdCoordinator pd, ScalingSummary scaling) {
        if (pd == null) {
            return scaling.enabled() ? PdSummary.aggregated(scaling.peakReplicas() * setup.gpusPerReplica(),
                    scaling.meanReplicas() * setup.gpusPerReplica()) : PdSummary.aggregated(setup.gpus());
        }
        PdSetup s = pd.setup();
        PdStats st = pd.stats();
        return new PdSummary("pd", s.gpus(), s.gpus(), Double.NaN, s.decider().configName(), st.remote(), st.local(),
                pool(s.prefill(), st, 0), pool(s.decode(), st, 1), st.transfers(), st.transferBytes(), ms(st.transferUs()),
                ms(st.bandwidthWaitUs()), st.blockWaits(), ms(st.blockWaitUs()));
    }

    /** Pool {@code p} (0 prefill, 1 decode): its core, model and KV capacity, busy time, KV use and queueing. */
    private static PdSummary.Pool pool(PoolSetup pool, PdStats st, int p) {
        long busy = st.busyUs(p);
        return new PdSummary.Pool(pool.replicas(), pool.gpus(), pool.engine().kindName(), pool.latency().name(),
                pool.latency().describe(), pool.engine().totalKvBlocks(), pool.engine().kvTiers().cpuBlocks(), busy,
                Double.NaN, busy == 0 ? Double.NaN : st.kvBusyWeighted(p) / busy,
                ms(st.queueingUs(p)), new long[0]);
    }

    private static Distribution ms(it.unimi.dsi.fastutil.longs.LongArrayList us) {
        return Distribution.ofMicros(Percentiles.of(us));
    }
}
