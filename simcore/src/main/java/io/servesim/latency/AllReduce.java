package io.servesim.latency;

import java.util.Locale;

/**
 * Time of one tensor-parallel all-reduce of a message over a GPU's {@link Interconnect}, chosen the way vLLM's CUDA
 * communicator chooses and priced the way each implementation works.
 *
 * <p><b>Which implementation.</b> vLLM's {@code CudaCommunicator.all_reduce} tries its custom all-reduce first and
 * falls back to NCCL ({@code vllm/distributed/device_communicators/cuda_communicator.py}). The custom all-reduce
 * ({@code custom_all_reduce.py} @ vllm-project/vllm 00d618aa) is on only for world sizes 2, 4, 6 and 8 within one node,
 * with GPU peer-to-peer access, and, above two GPUs, only when they are fully NVLink-connected ("not supported on more
 * than two PCIe-only GPUs"); it takes a message below its buffer, {@code max_size} 8 MiB ({@code should_custom_ar}).
 * Its kernel ({@code csrc/custom_all_reduce.cuh} @ 036bb685) is one-shot for two GPUs and, fully connected, below
 * 512 KiB up to four GPUs or 256 KiB up to eight; two-shot otherwise. Everything else goes to NCCL. (On Hopper and
 * Blackwell with torch symmetric memory, vLLM narrows the custom all-reduce to 512 KiB / 256 KiB at six / eight GPUs
 * and sends mid-size messages to symmetric-memory kernels, {@code all_reduce_utils.py}; those are priced as NCCL here,
 * which vLLM's own H100 tables in PR #24111 put within about 1.3x of them.)
 *
 * <p><b>Custom all-reduce.</b> Every rank reads its peers' buffers over the link between a start and an end flag
 * exchange ("Latency = 1 p2p write" each): one-shot reads (n - 1) x S bytes; two-shot reduce-scatters, waits at a
 * barrier across every block of every rank, then all-gathers, 2 (n - 1) / n x S bytes. Time = one kernel's fixed
 * cost (the roofline's cross-GPU {@link RooflineConstants#kernelLaunchUs()}) + 2 link latencies + bytes / the link's
 * usable bandwidth ({@link Interconnect#effectiveLinkGBps()}); two-shot's mid-kernel barrier costs another kernel
 * boundary and 2 latencies. On an H100 at TP 4 one-shot is 7.8 us + 8.5 us per MiB where vLLM measured about
 * 6 + 8 (PR #24532's table, {@code ca_1stage}, 0.5-4 MiB), and two-shot 15.6 us + 4.2 us per MiB where it measured
 * 17 us at 0.5 MiB ({@code ca_2stage}); so, as measured, the switch to two-shot never makes a message cheaper.
 *
 * <p><b>NCCL.</b> Its tuner's performance model (NVIDIA/nccl @ v2.27.3-1, {@code src/graph/tuning.cc},
 * {@code ncclTopoTuneModel} and {@code ncclTopoGetAlgoTime}): for ring and tree and the LL, LL128 and Simple protocols,
 * time = latency + bytes / (1000 x algorithm bandwidth in GB/s), and NCCL runs the fastest. Ring latency =
 * base + 2 (n - 1) hops at the link's per-hop latency (network hops priced as network); ring bus bandwidth = the link's
 * usable bandwidth (across nodes the lesser of it and one NIC per GPU), halved and capped for LL, x 0.92 for LL128
 * (NVLink only), times n / (2 (n - 1)) for the algorithm bandwidth. Tree: base + 2 ((GPUs per node - 1) intra hops +
 * log2(nodes) network hops); bus bandwidth x 0.92, then / 3.8 (LL, capped) or x 7/9 (LL128, one node) or x 120/128
 * (LL128, several), times 0.5, and the size-dependent correction factors. NCCL's per-channel caps, the ring
 * plateau factor across nodes and NVLS / CollNet / PAT are not modelled. Where the GPU row times NCCL's all-reduce
 * between exactly this many of its GPUs ({@link MeasuredCollectives}) and the group stays within a node, the measured
 * time replaces this model for the messages NCCL takes (the custom all-reduce's are not NCCL's, and stay modelled).
 */
public final class AllReduce {
    /** vLLM {@code CustomAllreduce}'s default {@code max_size}: larger messages go to NCCL. */
    public static final long CUSTOM_MAX_BYTES = 8L << 20;
    /** World sizes vLLM's custom all-reduce supports ({@code _SUPPORTED_WORLD_SIZES}). */
    private static final int[] CUSTOM_WORLD_SIZES = {2, 4, 6, 8};

    private static final int RING = 0;
    private static final int TREE = 1;
    private static final int LL = 0;
    private static final int LL128 = 1;
    private static final int SIMPLE = 2;
    /** NCCL {@code baseLat}, us: [algorithm][protocol]. */
    private static final double[][] BASE_LAT = {{6.6, 14.0, 8.4}, {6.8, 14.0, 8.4}};
    /** NCCL {@code hwLat}, us: [NVLink, PCI, network][algorithm][protocol]. */
    private static final double[][][] HW_LAT = {
            {{0.6, 1.9, 3.4}, {0.6, 1.25, 4.0}},
            {{1.0, 2.5, 5.7}, {1.0, 1.9, 4.0}},
            {{2.7, 4.0, 14.0}, {5.0, 8.5, 14.0}}};
    /** NCCL {@code treeCorrectionFactor}[protocol][log2(bytes / 64)] for sizes 64 B to 256 MiB. */
    private static final double[][] TREE_CORRECTION = {
            {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
            {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0},
            {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9}};

    private final int gpus;
    private final Interconnect link;
    private final boolean custom;
    private final long oneShotBelowBytes;
    private final double customFixedUs;
    private final double twoShotFixedUs;
    private final double oneShotUsPerByte;
    private final double twoShotUsPerByte;
    /** NCCL's latency (us) and algorithm bandwidth (bytes per us; 0 = disabled) per [algorithm][protocol]. */
    private final double[][] ncclLatUs = new double[2][3];
    private final double[][] ncclBytesPerUs = new double[2][3];
    private final MeasuredCollectives measured;

    /**
     * @param link     the GPU's interconnect
     * @param gpus     the tensor-parallel group's size (at least 2)
     * @param kernelUs the fixed cost of one GPU kernel (the custom all-reduce's launch)
     */
    public AllReduce(Interconnect link, int gpus, double kernelUs) {
        if (gpus < 2) {
            throw new IllegalArgumentException("an all-reduce needs 2 GPUs or more, got " + gpus);
        }
        this.gpus = gpus;
        this.link = link;
        MeasuredCollectives table = link.spansNodes(gpus) ? MeasuredCollectives.NONE : link.measuredCollectives();
        this.measured = table.covers(MeasuredCollectives.Collective.ALL_REDUCE, gpus) ? table : MeasuredCollectives.NONE;
        boolean nvlink = link.type() == Interconnect.LinkType.NVLINK;
        this.custom = supportedWorldSize(gpus) && !link.spansNodes(gpus) && link.peerToPeer() && (gpus == 2 || nvlink);
        this.oneShotBelowBytes = gpus == 2 ? Long.MAX_VALUE : gpus <= 4 ? 512L << 10 : 256L << 10;
        double bytesPerUs = link.effectiveLinkGBps() * 1e3;
        this.customFixedUs = kernelUs + 2 * link.linkLatencyUs();
        this.twoShotFixedUs = 2 * customFixedUs;
        this.oneShotUsPerByte = (gpus - 1) / bytesPerUs;
        this.twoShotUsPerByte = 2.0 * (gpus - 1) / gpus / bytesPerUs;
        tuneNccl(nvlink);
    }

    private static boolean supportedWorldSize(int gpus) {
        for (int w : CUSTOM_WORLD_SIZES) {
            if (w == gpus) {
                return true;
            }
        }
        return false;
    }

    /** NCCL {@code ncclTopoTuneModel} for an all-reduce over this group (see the class comment). */
    private void tuneNccl(boolean nvlink) {
        tuneRing(link, gpus, 2 * (gpus - 1), ncclLatUs[RING], ncclBytesPerUs[RING]);
        int nodes = nodes(link, gpus);
        double perNode = (double) gpus / nodes;
        int intraHw = nvlink ? 0 : 1;
        double busBw = busGBps(link, gpus);
        double llMaxBw = llMaxGBps(link, nodes);
        for (int p = 0; p < 3; p++) {
            if (p == LL128 && !nvlink) {
                continue; // NCCL enables LL128 only over NVLink paths
            }
            double tree = busBw * 0.92;
            tree = p == LL ? Math.min(tree / 3.8, llMaxBw) : p == LL128 ? tree * (nodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0) : tree;
            ncclLatUs[TREE][p] = BASE_LAT[TREE][p] + 2 * ((perNode - 1) * HW_LAT[intraHw][TREE][p]
                    + log2(nodes) * HW_LAT[2][TREE][p]);
            ncclBytesPerUs[TREE][p] = tree * 0.5 * 1e3;
        }
    }

    /**
     * NCCL's ring, per protocol (LL, LL128, Simple): latency (us) = base + {@code steps} hops at the link's per-hop
     * latency (the hops between nodes at the network's), algorithm bandwidth (bytes per us) = bus bandwidth (halved and
     * capped for LL, x 0.92 for LL128, which runs over NVLink only: 0 otherwise) x n / steps. An all-reduce takes
     * 2 (n - 1) steps, an all-gather or reduce-scatter n - 1 ({@code ncclTopoGetAlgoTime}'s {@code nsteps}).
     */
    static void tuneRing(Interconnect link, int gpus, int steps, double[] latUs, double[] bytesPerUs) {
        boolean nvlink = link.type() == Interconnect.LinkType.NVLINK;
        int nodes = nodes(link, gpus);
        int intraHw = nvlink ? 0 : 1;
        double busBw = busGBps(link, gpus);
        double llMaxBw = llMaxGBps(link, nodes);
        int interSteps = Math.min(steps, (steps / (gpus - 1)) * (nodes - 1));
        for (int p = 0; p < 3; p++) {
            if (p == LL128 && !nvlink) {
                bytesPerUs[p] = 0;
                continue;
            }
            double ring = p == LL ? Math.min(llMaxBw, busBw * .5) : p == LL128 ? busBw * 0.92 : busBw;
            latUs[p] = BASE_LAT[RING][p] + (steps - interSteps) * HW_LAT[intraHw][RING][p] + interSteps * HW_LAT[2][RING][p];
            bytesPerUs[p] = ring * gpus / steps * 1e3;
        }
    }

    private static int nodes(Interconnect link, int gpus) {
        return (gpus + link.gpusPerNode() - 1) / link.gpusPerNode();
    }

    /** The ring's bus bandwidth, GB/s: the link's usable bandwidth, across nodes the lesser of it and the node's NICs. */
    static double busGBps(Interconnect link, int gpus) {
        int nodes = nodes(link, gpus);
        return nodes == 1 ? link.effectiveLinkGBps() : Math.min(link.effectiveLinkGBps(), (double) gpus / nodes * link.networkGBps());
    }

    /** LL's cap: NCCL llMaxBws, single node by the GPU generation (NVLink 3/4/5: Ampere/Hopper/Blackwell), across nodes its Intel-CPU row. */
    private static double llMaxGBps(Interconnect link, int nodes) {
        boolean nvlink = link.type() == Interconnect.LinkType.NVLINK;
        return nodes > 2 ? 20.4 : nodes == 2 ? 39.0
                : !nvlink ? 87.7 : link.generation() <= 3 ? 87.7 : link.generation() == 4 ? 141.0 : 282.0;
    }

    private static int log2(int n) {
        return 31 - Integer.numberOfLeadingZeros(n);
    }

    /** Microseconds one all-reduce of {@code bytes} takes (0 for an empty message). */
    public double timeUs(double bytes) {
        if (bytes <= 0) {
            return 0;
        }
        if (custom && bytes < CUSTOM_MAX_BYTES) {
            return bytes < oneShotBelowBytes ? customFixedUs + bytes * oneShotUsPerByte : twoShotFixedUs + bytes * twoShotUsPerByte;
        }
        return ncclUs(bytes);
    }

    /** NCCL's time: measured where the row times this group's all-reduce, else the fastest algorithm and protocol. */
    double ncclUs(double bytes) {
        if (measured != MeasuredCollectives.NONE) {
            return measured.timeUs(MeasuredCollectives.Collective.ALL_REDUCE, bytes);
        }
        int logSize = log2Long((long) bytes >> 6);
        double best = Double.MAX_VALUE;
        for (int a = 0; a < 2; a++) {
            for (int p = 0; p < 3; p++) {
                double bw = ncclBytesPerUs[a][p];
                if (bw <= 0) {
                    continue;
                }
                if (a == TREE && logSize >= 0 && logSize < 23) {
                    bw *= TREE_CORRECTION[p][logSize];
                }
                best = Math.min(best, ncclLatUs[a][p] + bytes / bw);
            }
        }
        return best;
    }

    private static int log2Long(long n) {
        return n <= 0 ? -1 : 63 - Long.numberOfLeadingZeros(n);
    }

    /** Whether vLLM's custom all-reduce takes this group's small messages. */
    public boolean customAllReduce() {
        return custom;
    }

    /** Which implementation runs at which size, for summaries. */
    public String describe() {
        String nccl = link.spansNodes(gpus) ? "NCCL ring/tree across " + ((gpus + link.gpusPerNode() - 1) / link.gpusPerNode())
                + " nodes" : measured != MeasuredCollectives.NONE ? "NCCL as measured between " + gpus + " of these GPUs"
                : "NCCL ring/tree";
        if (!custom) {
            String why = link.spansNodes(gpus) ? "the group spans nodes" : !supportedWorldSize(gpus) ? "TP " + gpus
                    + " is not a world size vLLM's custom all-reduce supports" : !link.peerToPeer() ? "no peer-to-peer access"
                    : "more than two PCIe GPUs";
            return nccl + " (vLLM's custom all-reduce is off: " + why + ")";
        }
        return String.format(Locale.ROOT, "vLLM custom all-reduce below 8 MiB (%s), %s above", gpus == 2 ? "one-shot"
                : "one-shot below " + (oneShotBelowBytes >> 10) + " KiB", nccl);
    }
}
