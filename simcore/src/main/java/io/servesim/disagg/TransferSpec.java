package io.servesim.disagg;

import io.servesim.config.ConfigNode;

/**
 * The KV transfer links ({@code deployment.pd.transfer}): a transfer takes {@code latency + bytes / bandwidth}
 * alone (the transfer model of BLIS macro plan, D.3 and D.4 "Latency + bandwidth model":
 * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}),
 * and concurrent transfers on one link ({@link Topology}) share its bandwidth equally.
 *
 * @param latencyUs       fixed cost per transfer (handshake and completion notification), microseconds
 * @param bandwidthGbPerS one link's bandwidth per GPU stream, GB/s ({@link PdSettings#TRANSFER_BANDWIDTH})
 * @param topology        which transfers share a link
 */
public record TransferSpec(long latencyUs, double bandwidthGbPerS, Topology topology) {
    public TransferSpec {
        if (latencyUs < 0 || !(bandwidthGbPerS > 0) || topology == null) {
            throw new IllegalArgumentException("invalid transfer spec");
        }
    }

    /** Binds {@code deployment.pd.transfer}: {@code latency} (a duration), {@code bandwidth}, {@code topology}. */
    static TransferSpec bind(ConfigNode t) {
        long latency = t.get(PdSettings.TRANSFER_LATENCY);
        double bandwidth = t.get(PdSettings.TRANSFER_BANDWIDTH);
        Topology topology = Topology.of(t.get(PdSettings.TRANSFER_TOPOLOGY));
        t.finish();
        return new TransferSpec(latency, bandwidth, topology);
    }

    /** Bytes per microsecond of one link. */
    double bytesPerUs() {
        return bandwidthGbPerS * 1e3;
    }
}
