package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link AllReduce}'s NCCL prices on the shipped RTX PRO 6000 row's link (PCIe Gen5 x16 with peer-to-peer, no NVLink) against
 * a public measurement of NCCL all-reduces between four RTX PRO 6000 Blackwell Server Edition cards in one NUMA node
 * (ASUS ESC8000A-E13P, Broadcom PCIe switches), which the model was not fitted on: voipmonitor/rtx6kpro @ 29f3863,
 * {@code optimization/pcie-oneshot-allreduce.md}, "Raw AllReduce Latency", NCCL column, timed by the crossover
 * benchmark an SGLang server runs at startup. Its 71.2 us at 64 KB (against 15.6 at 32 KB and 24.7 at 128 KB) is left
 * out as an outlier of that benchmark. Model / measured, in us:
 * <pre>
 *  1 KB 12.7 / 13.5   4 KB 12.9 / 13.2   8 KB 13.1 / 13.9   16 KB 13.6 / 14.7   32 KB 14.6 / 15.6
 *  128 KB 20.8 / 24.7   256 KB 29.0 / 40.9   512 KB 45.4 / 71.7   1 MB 75.4 / 85.2
 * </pre>
 * Up to 32 KB, where the latency terms of NCCL's tuner dominate, the model is 2-8% fast; at 128 KB-1 MB 11-37% fast
 * (the 512 KB message the most). Geometric mean of the nine ratios: exp((-0.061 - 0.023 - 0.060 - 0.078 - 0.066
 * - 0.172 - 0.344 - 0.457 - 0.122) / 9) = 0.858. The bounds hold the model to that: no message over 1.1x or under
 * 0.6x its measured time.
 */
class AllReduceMeasuredTest {
    /**
     * The shipped row's link as NCCL's topology model estimates it (48 GB/s of PCIe Gen5 x16): the row's measured bus
     * bandwidth and collectives are another server's, two cards in LLMServingSim's, and this one's was not measured at
     * large messages.
     */
    private static final Interconnect RTXPRO6000 = unmeasured(GpuCatalog.builtIn().lookup("RTXPRO6000", "test").interconnect());

    private static Interconnect unmeasured(Interconnect i) {
        return new Interconnect(i.type(), i.generation(), i.linkGBps(), i.lanes(), i.peerToPeer(), i.linkLatencyUs(),
                i.gpusPerNode(), i.networkGBps(), i.networkLatencyUs(), 0, MeasuredCollectives.NONE);
    }
    private static final double KERNEL_US = RooflineConstants.bundled().kernelLaunchUs();

    /** {bytes, measured us}: 4 RTX PRO 6000, NCCL, same NUMA node. */
    private static final double[][] FOUR_GPUS = {
            {1 << 10, 13.5}, {4 << 10, 13.2}, {8 << 10, 13.9}, {16 << 10, 14.7}, {32 << 10, 15.6},
            {128 << 10, 24.7}, {256 << 10, 40.9}, {512 << 10, 71.7}, {1 << 20, 85.2}};

    @Test
    void moreThanTwoPcieGpusRunNcclAsVllmDoes() {
        // vLLM's custom all-reduce is "not supported on more than two PCIe-only GPUs": every size goes to NCCL
        assertFalse(new AllReduce(RTXPRO6000, 4, KERNEL_US).customAllReduce());
    }

    @Test
    void ncclPricesStayWithinTheMeasuredBand() {
        AllReduce ar = new AllReduce(RTXPRO6000, 4, KERNEL_US);
        double logSum = 0;
        for (double[] row : FOUR_GPUS) {
            double ratio = ar.timeUs(row[0]) / row[1];
            assertTrue(ratio > 0.6 && ratio < 1.1, (long) row[0] + " bytes: model / measured " + ratio);
            logSum += Math.log(ratio);
        }
        // the geometric mean of the class comment
        assertEquals(0.858, Math.exp(logSum / FOUR_GPUS.length), 0.005);
    }

    @Test
    void smallMessagesCostNcclsLatencyTerms() {
        // 4 GPUs, 1 KB: ring LL, 6.6 + 6 hops x 1.0 us (NCCL's PCI hwLat) = 12.6 us, plus 1,024 bytes at
        // min(87.7, 48 / 2) = 24 GB/s x 4 / 6 = 16,000 bytes per us: 12.6 + 0.064 = 12.664 us (measured 13.5)
        assertEquals(12.664, new AllReduce(RTXPRO6000, 4, KERNEL_US).timeUs(1 << 10), 1e-9);
    }
}
