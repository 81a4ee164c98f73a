package io.servesim.disagg;

import io.servesim.config.ConfigNode;
import io.servesim.config.Durations;

/**
 * The KV transfer links ({@code deployment.pd.transfer}): a transfer takes {@code latency + bytes / bandwidth}
 * alone (the transfer model of BLIS macro plan, D.3 and D.4 "Latency + bandwidth model":
 * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}),
 * and concurrent transfers on one link ({@link Topology}) share its bandwidth equally.
 *
 * @param latencyUs       fixed cost per transfer (handshake and completion notification), microseconds
 * @param bandwidthGbPerS one link's bandwidth per GPU stream, GB/s; default 50 (one 400 Gb/s NIC per GPU,
 *                        the ConnectX-7 of a DGX H100, as Dynamo's NIXL moves KV GPU to GPU over RDMA)
 * @param topology        which transfers share a link
 */
public record TransferSpec(long latencyUs, double bandwidthGbPerS, Topology topology) {
    public static final double DEFAULT_BANDWIDTH_GB_PER_S = 50;
    public static final TransferSpec DEFAULT = new TransferSpec(0, DEFAULT_BANDWIDTH_GB_PER_S, Topology.PER_PAIR);

    public TransferSpec {
        if (latencyUs < 0 || !(bandwidthGbPerS > 0) || topology == null) {
            throw new IllegalArgumentException("invalid transfer spec");
        }
    }

    /** Binds {@code deployment.pd.transfer}: {@code latency} (a duration), {@code bandwidth}, {@code topology}. */
    static TransferSpec bind(ConfigNode t) {
        long latency = Durations.value(t, "latency", DEFAULT.latencyUs());
        double bandwidth = io.servesim.config.Bandwidths.value(t, "bandwidth", DEFAULT.bandwidthGbPerS());
        String topology = t.choice("topology", DEFAULT.topology().configName(), Topology.names());
        t.finish();
        return new TransferSpec(latency, bandwidth, Topology.of(topology));
    }

    /** Bytes per microsecond of one link. */
    double bytesPerUs() {
        return bandwidthGbPerS * 1e3;
    }
}
