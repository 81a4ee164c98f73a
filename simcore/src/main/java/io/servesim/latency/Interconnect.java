package io.servesim.latency;

import java.util.Locale;

/**
 * How the GPUs of one server and of several servers talk to each other, as a GPU's datasheet row states it
 * ({@code link}, {@code gpus_per_node} and {@code network} in {@code gpus.yaml}): the intra-node link (NVLink of a
 * generation at its per-GPU bandwidth, or PCIe of a generation and lane count, with or without GPU peer-to-peer
 * access), its one-way latency, and the network between nodes (one NIC's bandwidth per GPU and its latency).
 * {@link AllReduce} prices tensor-parallel all-reduces from it and P/D KV transfers move over its network.
 *
 * <p>Usable bandwidth is the one NCCL's topology model assigns a link (NVIDIA/nccl @ v2.27.3-1,
 * {@code src/graph/topo.h} and {@code topo.cc}): an NVLink of SM80 (NVLink 3) moves 20 GB/s per link of 25, of SM90
 * (NVLink 4) 20.6 of 25, of SM100 (NVLink 5) 40 of 50; a PCIe lane of {@code 16 GT/s} 1.5 GB/s (NCCL's
 * {@code width x speed / 80} with its per-generation {@code speed} 60 / 120 / 240 / 480 for Gen 3 / 4 / 5 / 6), a
 * quarter below the raw signalling rate. The measured H100 NVLink 4 peer-to-peer write bandwidth, 371-377 GB/s of the
 * nominal 450 (NVIDIA/nccl issue #1264, {@code p2pBandwidthLatencyTest} on an HGX H100), is that 0.824 share.
 * Where a GPU row gives the bus bandwidth NCCL was measured to reach between two of its GPUs
 * ({@code link.measured_bus_gbps}), that replaces the estimate: over PCIe the path through the host's root complex,
 * not the lanes, sets it (two RTX PRO 6000s over PCIe Gen5 x16 measure 26-36 GB/s of the lanes' 48). Where it gives
 * NCCL collectives timed between a number of its GPUs ({@code link.measured_collectives}), those times replace NCCL's
 * model for groups of that size within a node ({@link MeasuredCollectives}).
 *
 * @param type             the intra-node link
 * @param generation       NVLink 2-5 or PCIe 3-6
 * @param linkGBps         NVLink: the GPU's total NVLink bandwidth per direction (datasheet), GB/s; PCIe: the x lanes
 *                         signalling rate per direction after 128b/130b encoding (Gen 6: 242/256 FLIT), derived
 * @param lanes            PCIe lanes (0 for NVLink)
 * @param peerToPeer       GPUs read and write each other's memory directly (always over NVLink; over PCIe only when the
 *                         driver allows it); without it, traffic goes through host memory and vLLM's custom all-reduce is off
 * @param linkLatencyUs    one-way latency of a small write to a peer over the link, microseconds
 * @param gpusPerNode      GPUs one node (server) holds: a tensor-parallel group larger than this spans nodes
 * @param networkGBps      the inter-node network per GPU (one NIC per GPU), GB/s per direction
 * @param networkLatencyUs one-way latency of the inter-node network, microseconds
 * @param measuredBusGBps  the bus bandwidth NCCL was measured to reach between two GPUs over the link, GB/s; 0 when the
 *                         row gives none (NCCL's topology estimate then stands)
 * @param measuredCollectives NCCL collectives timed between GPUs over the link; {@link MeasuredCollectives#NONE} when
 *                         the row gives none
 */
public record Interconnect(LinkType type, int generation, double linkGBps, int lanes, boolean peerToPeer,
                           double linkLatencyUs, int gpusPerNode, double networkGBps, double networkLatencyUs,
                           double measuredBusGBps, MeasuredCollectives measuredCollectives) {

    /** The intra-node link's kind. */
    public enum LinkType {
        NVLINK("nvlink", 2, 5), PCIE("pcie", 3, 6);

        private final String configName;
        private final int minGeneration;
        private final int maxGeneration;

        LinkType(String configName, int minGeneration, int maxGeneration) {
            this.configName = configName;
            this.minGeneration = minGeneration;
            this.maxGeneration = maxGeneration;
        }

        public String configName() {
            return configName;
        }

        public int minGeneration() {
            return minGeneration;
        }

        public int maxGeneration() {
            return maxGeneration;
        }
    }

    /** PCIe lane counts a GPU link may have. */
    public static final java.util.List<Integer> PCIE_LANES = java.util.List.of(1, 2, 4, 8, 16);

    public Interconnect {
        if (type == null || generation < type.minGeneration || generation > type.maxGeneration || !(linkGBps > 0)
                || (type == LinkType.PCIE) == (lanes == 0) || !(linkLatencyUs >= 0) || gpusPerNode < 1
                || !(networkGBps > 0) || !(networkLatencyUs >= 0) || (type == LinkType.NVLINK && !peerToPeer)
                || !(measuredBusGBps >= 0 && measuredBusGBps <= linkGBps) || measuredCollectives == null) {
            throw new IllegalArgumentException("invalid interconnect " + type + " " + generation);
        }
    }

    /** An NVLink row: {@code linkGBps} per direction over all the GPU's links (always peer-to-peer). */
    public static Interconnect nvlink(int generation, double linkGBps, double linkLatencyUs, int gpusPerNode,
                                      double networkGBps, double networkLatencyUs) {
        return new Interconnect(LinkType.NVLINK, generation, linkGBps, 0, true, linkLatencyUs, gpusPerNode, networkGBps,
                networkLatencyUs, 0, MeasuredCollectives.NONE);
    }

    /** A PCIe row: its bandwidth follows from generation and lanes ({@link #pcieGBps}). */
    public static Interconnect pcie(int generation, int lanes, boolean peerToPeer, double linkLatencyUs, int gpusPerNode,
                                    double networkGBps, double networkLatencyUs) {
        return new Interconnect(LinkType.PCIE, generation, pcieGBps(generation, lanes), lanes, peerToPeer, linkLatencyUs,
                gpusPerNode, networkGBps, networkLatencyUs, 0, MeasuredCollectives.NONE);
    }

    /**
     * This link with the bus bandwidth NCCL was measured to reach between two of its GPUs, GB/s, at most the link's
     * own rate per direction.
     */
    public Interconnect withMeasuredBus(double busGBps) {
        return new Interconnect(type, generation, linkGBps, lanes, peerToPeer, linkLatencyUs, gpusPerNode, networkGBps,
                networkLatencyUs, busGBps, measuredCollectives);
    }

    /** This link with NCCL collectives timed between a number of its GPUs. */
    public Interconnect withMeasuredCollectives(MeasuredCollectives collectives) {
        return new Interconnect(type, generation, linkGBps, lanes, peerToPeer, linkLatencyUs, gpusPerNode, networkGBps,
                networkLatencyUs, measuredBusGBps, collectives);
    }

    /**
     * Per-direction bandwidth of {@code lanes} PCIe lanes of {@code generation} after line encoding, GB/s: 8 / 16 / 32
     * GT/s per lane with 128b/130b for Gen 3 / 4 / 5, 64 GT/s with 242/256 FLIT efficiency for Gen 6 (PCI-SIG base
     * specifications; Gen 5 x16 = 63.0 GB/s).
     */
    public static double pcieGBps(int generation, int lanes) {
        return switch (generation) {
            case 3 -> lanes * 8.0 * 128 / 130 / 8;
            case 4 -> lanes * 16.0 * 128 / 130 / 8;
            case 5 -> lanes * 32.0 * 128 / 130 / 8;
            case 6 -> lanes * 64.0 * 242 / 256 / 8;
            default -> throw new IllegalArgumentException("PCIe generation " + generation + " not in 3-6");
        };
    }

    /**
     * The link bandwidth NCCL's topology model counts, GB/s per direction (see the class comment): NVLink 2/3/5 at 0.8
     * of nominal ({@code SM70/SM80_NVLINK_BW} 20 of 25, {@code SM100_NVLINK_BW} 40 of 50), NVLink 4 at 20.6 / 25
     * ({@code SM90_NVLINK_BW}); PCIe at {@code lanes x speed / 80} GB/s, 0.75 of the raw rate per lane. A measured bus
     * bandwidth, when the row gives one, replaces the estimate.
     */
    public double effectiveLinkGBps() {
        if (measuredBusGBps > 0) {
            return measuredBusGBps;
        }
        if (type == LinkType.NVLINK) {
            return linkGBps * (generation == 4 ? 20.6 / 25.0 : 0.8);
        }
        int speed = switch (generation) {
            case 3 -> 60;
            case 4 -> 120;
            case 5 -> 240;
            default -> 480;
        };
        return lanes * speed / 80.0;
    }

    /** Whether a group of {@code gpus} spans more than one node. */
    public boolean spansNodes(int gpus) {
        return gpus > gpusPerNode;
    }

    /** One line for summaries: {@code NVLink 4, 450 GB/s per GPU, 8 GPUs per node; network 50 GB/s per GPU}. */
    public String describe() {
        String link = type == LinkType.NVLINK
                ? String.format(Locale.ROOT, "NVLink %d, %.0f GB/s per direction per GPU", generation, linkGBps)
                : String.format(Locale.ROOT, "PCIe Gen%d x%d, %.1f GB/s per direction, %s", generation, lanes, linkGBps,
                        peerToPeer ? "peer-to-peer" : "through host memory (no peer-to-peer)");
        java.util.List<String> facts = new java.util.ArrayList<>();
        if (measuredBusGBps > 0) {
            facts.add(String.format(Locale.ROOT, "NCCL measured at %.1f GB/s bus bandwidth", measuredBusGBps));
        }
        if (measuredCollectives.ranks() > 0) {
            facts.add("NCCL " + measuredCollectives.describe());
        }
        String measured = facts.isEmpty() ? "" : " (" + String.join("; ", facts) + ")";
        return String.format(Locale.ROOT, "%s%s, %.1f us; %d GPUs per node; network %.1f GB/s per GPU, %.1f us", link,
                measured, linkLatencyUs, gpusPerNode, networkGBps, networkLatencyUs);
    }
}
