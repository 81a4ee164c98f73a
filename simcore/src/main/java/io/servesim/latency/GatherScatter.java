package io.servesim.latency;

import java.util.Locale;

/**
 * Time of one NCCL all-gather or reduce-scatter over a GPU's {@link Interconnect}: the collectives of vLLM's default
 * expert-parallel all-to-all backend, {@code allgather_reducescatter} ({@code VLLM_ALL2ALL_BACKEND}; {@code
 * vllm/distributed/device_communicators/all2all.py AgRsAll2AllManager}: the dispatch all-gathers every data-parallel
 * rank's hidden states and router logits, the combine reduce-scatters the experts' outputs back), run over NCCL
 * ({@code PyNcclCommunicator}, no custom kernel).
 *
 * <p>Priced by the same NCCL tuner model as {@link AllReduce}'s (NVIDIA/nccl @ v2.27.3-1, {@code src/graph/tuning.cc}):
 * NCCL runs both collectives as a ring only, in n - 1 steps ({@code nsteps = nRanks - 1} for every collective but
 * all-reduce), so time = ring latency (base + (n - 1) hops) + bytes / (bus bandwidth x n / (n - 1)), the fastest of
 * its protocols, with {@code bytes} the whole gathered buffer (n ranks' chunks): the definition by which nccl-tests
 * reports an all-gather's bus bandwidth, {@code busbw = size / time x (n - 1) / n}. Where the GPU row times NCCL's
 * all-gather or reduce-scatter between exactly this many of its GPUs ({@link MeasuredCollectives}) and the group stays
 * within a node, the measured time of one rank's chunk, {@code bytes / n}, replaces the model.
 */
public final class GatherScatter {
    private final double[] latUs = new double[3];
    private final double[] bytesPerUs = new double[3];
    private final int gpus;
    private final MeasuredCollectives measured;
    private final double busGBps;
    private final String link;

    /**
     * @param link the GPUs' interconnect
     * @param gpus ranks taking part (at least 2)
     */
    public GatherScatter(Interconnect link, int gpus) {
        if (gpus < 2) {
            throw new IllegalArgumentException("an all-gather needs 2 GPUs or more, got " + gpus);
        }
        this.gpus = gpus;
        this.measured = link.spansNodes(gpus) ? MeasuredCollectives.NONE : link.measuredCollectives();
        this.busGBps = AllReduce.busGBps(link, gpus);
        this.link = link.spansNodes(gpus) ? "the network between nodes" : link.type() == Interconnect.LinkType.NVLINK
                ? "NVLink " + link.generation() : "PCIe Gen" + link.generation() + " x" + link.lanes();
        AllReduce.tuneRing(link, gpus, gpus - 1, latUs, bytesPerUs);
    }

    /** Microseconds one all-gather of a {@code totalBytes} buffer (every rank's chunk) takes (0 when empty). */
    public double allGatherUs(double totalBytes) {
        return timeUs(MeasuredCollectives.Collective.ALL_GATHER, totalBytes);
    }

    /** Microseconds one reduce-scatter of a {@code totalBytes} buffer into one chunk a rank takes (0 when empty). */
    public double reduceScatterUs(double totalBytes) {
        return timeUs(MeasuredCollectives.Collective.REDUCE_SCATTER, totalBytes);
    }

    private double timeUs(MeasuredCollectives.Collective collective, double totalBytes) {
        if (totalBytes <= 0) {
            return 0;
        }
        if (measured.covers(collective, gpus)) {
            return measured.timeUs(collective, totalBytes / gpus);
        }
        return ncclModelUs(totalBytes);
    }

    /** NCCL's tuner model of either collective over a {@code totalBytes} buffer: its fastest ring protocol. */
    double ncclModelUs(double totalBytes) {
        double best = Double.MAX_VALUE;
        for (int p = 0; p < 3; p++) {
            if (bytesPerUs[p] > 0) {
                best = Math.min(best, latUs[p] + totalBytes / bytesPerUs[p]);
            }
        }
        return best;
    }

    /** For summaries: whether the measured times or NCCL's model price the collectives, and over which link. */
    public String describe() {
        boolean timed = measured.covers(MeasuredCollectives.Collective.ALL_GATHER, gpus)
                || measured.covers(MeasuredCollectives.Collective.REDUCE_SCATTER, gpus);
        return String.format(Locale.ROOT, "NCCL %s over %s", timed ? "as measured between " + gpus + " of these GPUs"
                : String.format(Locale.ROOT, "ring model at %.1f GB/s bus bandwidth", busGBps), link);
    }

    /** Ranks taking part. */
    public int gpus() {
        return gpus;
    }
}
