package io.servesim.run;

import io.servesim.disagg.PdCoordinator;
import io.servesim.disagg.PdSetup;
import io.servesim.disagg.PdStats;
import io.servesim.metrics.Distribution;
import io.servesim.metrics.PdSummary;
import io.servesim.metrics.Percentiles;

/** Builds a run's {@link PdSummary}: the GPU count of an aggregated fleet, or a P/D run's pools and transfers. */
final class PdSummaries {
    private PdSummaries() {
    }

    static PdSummary of(SimSetup setup, PdCoordinator pd) {
        if (pd == null) {
            return PdSummary.aggregated(setup.gpus());
        }
        PdSetup s = pd.setup();
        PdStats st = pd.stats();
        return new PdSummary("pd", s.gpus(), Double.NaN, s.decider().configName(), st.remote(), st.local(),
                pool(s.prefill().replicas(), s.prefill().gpus(), st, 0), pool(s.decode().replicas(), s.decode().gpus(), st, 1),
                st.transfers(), st.transferBytes(), ms(st.transferUs()), ms(st.bandwidthWaitUs()), st.blockWaits(),
                ms(st.blockWaitUs()));
    }

    private static PdSummary.Pool pool(int replicas, int gpus, PdStats st, int p) {
        long busy = st.busyUs(p);
        return new PdSummary.Pool(replicas, gpus, busy, Double.NaN, busy == 0 ? Double.NaN : st.kvBusyWeighted(p) / busy,
                ms(st.queueingUs(p)));
    }

    private static Distribution ms(it.unimi.dsi.fastutil.longs.LongArrayList us) {
        return Distribution.ofMicros(Percentiles.of(us));
    }
}
