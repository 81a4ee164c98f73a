package io.servesim.disagg;

import io.servesim.config.ConfigNode;

/**
 * The KV transfer links ({@code deployment.pd.transfer}): a transfer takes {@code latency + bytes / bandwidth}
 * alone (the transfer model of BLIS macro plan, D.3 and D.4 "Latency + bandwidth model":
 * inference-sim/inference-sim @ 7d4e8bac, {@code docs/plans/2026-02-11-macro-implementation-plan-v2.md}),
 * and concurrent transfers on one link ({@link Topology}) share its bandwidth equally.
 *
 * <p>Unless given, a link is the GPUs' inter-node network ({@code network} of their rows in {@code gpus.yaml},
 * {@link io.servesim.latency.Interconnect}): the lesser of the two pools' per-GPU network bandwidths (one NIC per GPU
 * as in a DGX H100, whose ConnectX-7 NICs move KV GPU to GPU over RDMA, as Dynamo's NIXL does) and the greater of their
 * network latencies, rounded up to a microsecond; {@link #fromNetwork} settles them once the pools' GPUs are known.
 *
 * @param latencyUs       fixed cost per transfer (handshake and completion notification), microseconds
 *                        ({@link PdSettings#TRANSFER_LATENCY}); -1: the network's
 * @param bandwidthGbPerS one link's bandwidth per GPU stream, GB/s ({@link PdSettings#TRANSFER_BANDWIDTH}); NaN: the
 *                        network's
 * @param topology        which transfers share a link
 */
public record TransferSpec(long latencyUs, double bandwidthGbPerS, Topology topology) {
    /** Latency or bandwidth taken from the GPUs' network. */
    public static final long LATENCY_FROM_NETWORK = -1;
    public static final double BANDWIDTH_FROM_NETWORK = Double.NaN;

    public TransferSpec {
        if (latencyUs < LATENCY_FROM_NETWORK || !(bandwidthGbPerS > 0 || Double.isNaN(bandwidthGbPerS)) || topology == null) {
            throw new IllegalArgumentException("invalid transfer spec");
        }
    }

    /** Binds {@code deployment.pd.transfer}: {@code latency} (a duration), {@code bandwidth}, {@code topology}. */
    static TransferSpec bind(ConfigNode t) {
        Long latency = t.get(PdSettings.TRANSFER_LATENCY);
        Double bandwidth = t.get(PdSettings.TRANSFER_BANDWIDTH);
        Topology topology = Topology.of(t.get(PdSettings.TRANSFER_TOPOLOGY));
        t.finish();
        return new TransferSpec(latency == null ? LATENCY_FROM_NETWORK : latency,
                bandwidth == null ? BANDWIDTH_FROM_NETWORK : bandwidth, topology);
    }

    /** Whether latency and bandwidth are settled (given, or taken from the network by {@link #fromNetwork}). */
    public boolean isResolved() {
        return latencyUs >= 0 && bandwidthGbPerS > 0;
    }

    /**
     * This spec with what it leaves to the network taken from the two pools' GPUs: the lesser network bandwidth and the
     * greater network latency (rounded up to a microsecond); either GPU may be null only when nothing is left to it.
     *
     * @throws IllegalArgumentException when a value is left to the network of an unknown GPU
     */
    public TransferSpec fromNetwork(io.servesim.latency.GpuSpec prefill, io.servesim.latency.GpuSpec decode) {
        if (isResolved()) {
            return this;
        }
        if (prefill == null || decode == null) {
            throw new IllegalArgumentException("the network of an unknown GPU");
        }
        var p = prefill.interconnect();
        var d = decode.interconnect();
        long latency = latencyUs >= 0 ? latencyUs : (long) Math.ceil(Math.max(p.networkLatencyUs(), d.networkLatencyUs()));
        double bandwidth = bandwidthGbPerS > 0 ? bandwidthGbPerS : Math.min(p.networkGBps(), d.networkGBps());
        return new TransferSpec(latency, bandwidth, topology);
    }

    /** Bytes per microsecond of one link. */
    double bytesPerUs() {
        return bandwidthGbPerS * 1e3;
    }
}
