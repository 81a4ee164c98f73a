package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link AllReduce} against times derived by hand from vLLM's dispatch rules and NCCL's tuning model, with a kernel
 * cost of 6 us. H100 (NVLink 4, 450 GB/s): NCCL's usable link bandwidth 450 x 20.6 / 25 = 370.8 GB/s = 370,800 bytes
 * per us; link latency 0.6 us, so the custom all-reduce's fixed cost is 6 + 2 x 0.6 = 7.2 us (two-shot: 14.4 us).
 */
class AllReduceTest {
    private static final double KERNEL_US = 6.0;
    private static final Interconnect H100 = GpuCatalog.builtIn().lookup("H100", "test").interconnect();
    private static final Interconnect RTX4090 = GpuCatalog.builtIn().lookup("RTX4090", "test").interconnect();
    private static final Interconnect PCIE_P2P = Interconnect.pcie(4, 16, true, 1.0, 8, 12.5, 2.7);

    @Test
    void linksHaveNcclsUsableBandwidth() {
        assertEquals(370.8, H100.effectiveLinkGBps(), 1e-9);
        // PCIe Gen4 x16: 16 lanes x 16 GT/s x 128/130 / 8 = 31.508 GB/s nominal; NCCL counts 16 x 120 / 80 = 24
        assertEquals(31.50769, RTX4090.linkGBps(), 1e-5);
        assertEquals(24.0, RTX4090.effectiveLinkGBps(), 1e-12);
        assertEquals(63.01538, Interconnect.pcieGBps(5, 16), 1e-5);
    }

    @Test
    void twoGpusOnNvlinkUseTheOneShotCustomAllReduce() {
        AllReduce ar = new AllReduce(H100, 2, KERNEL_US);
        assertTrue(ar.customAllReduce());
        // 1 MiB, one peer: 7.2 + 1,048,576 / 370,800 = 7.2 + 2.827875 = 10.027875 us
        assertEquals(10.027875, ar.timeUs(1 << 20), 1e-6);
    }

    @Test
    void fourGpusSwitchToTwoShotAt512KiBAndToNcclAt8MiB() {
        AllReduce ar = new AllReduce(H100, 4, KERNEL_US);
        // 256 KiB one-shot, three peers: 7.2 + 3 x 262,144 / 370,800 = 7.2 + 2.120906 = 9.320906 us
        assertEquals(9.320906, ar.timeUs(256 << 10), 1e-6);
        // 1 MiB two-shot: 14.4 + 2 x 3/4 x 1,048,576 / 370,800 = 14.4 + 4.241812 = 18.641812 us
        assertEquals(18.641812, ar.timeUs(1 << 20), 1e-6);
        // 16 MiB goes to NCCL. Ring Simple: 8.4 + 6 hops x 3.4 = 28.8 us, 370.8 x 4/6 = 247.2 GB/s:
        //   28.8 + 16,777,216 / 247,200 = 28.8 + 67.869 = 96.669 us; ring LL128 25.4 + 16,777,216 / 227,424 = 99.17;
        //   ring LL 10.2 + 16,777,216 / 94,000 = 188.7; tree Simple 32.4 + 16,777,216 / (170,568 x 0.7) = 172.9
        assertEquals(28.8 + 16_777_216 / 247_200.0, ar.timeUs(16 << 20), 1e-6);
    }

    @Test
    void theSwitchToTwoShotNeverMakesAMessageCheaper() {
        for (int gpus : new int[] {4, 8}) {
            AllReduce ar = new AllReduce(H100, gpus, 6.617);
            double previous = 0;
            for (double bytes = 1024; bytes <= 64 << 20; bytes += 1024) {
                double t = ar.timeUs(bytes);
                assertTrue(t >= previous, gpus + " GPUs, " + bytes + " bytes: " + t + " < " + previous);
                previous = t;
            }
        }
    }

    @Test
    void withoutPeerToPeerPcieGoesToNccl() {
        AllReduce ar = new AllReduce(RTX4090, 2, KERNEL_US);
        assertFalse(ar.customAllReduce());
        // 64 KiB over PCIe (24 GB/s, no LL128). Ring LL: 6.6 + 2 x 1.0 = 8.6 us, min(87.7, 24 / 2) = 12 GB/s x 2/2:
        //   8.6 + 65,536 / 12,000 = 14.061333 us; ring Simple 19.8 + 65,536 / 24,000 = 22.53; trees slower
        assertEquals(8.6 + 65_536 / 12_000.0, ar.timeUs(64 << 10), 1e-6);
        // with peer-to-peer the same two GPUs use the custom one-shot: 6 + 2 x 1.0 + 65,536 / 24,000 = 10.730667 us
        assertEquals(8.0 + 65_536 / 24_000.0, new AllReduce(PCIE_P2P, 2, KERNEL_US).timeUs(64 << 10), 1e-6);
        // four PCIe GPUs never use it (vLLM: "not supported on more than two PCIe-only GPUs")
        assertFalse(new AllReduce(PCIE_P2P, 4, KERNEL_US).customAllReduce());
    }

    @Test
    void sixteenH100sSpanTwoNodesAndCrossTheNetwork() {
        AllReduce ar = new AllReduce(H100, 16, KERNEL_US);
        assertFalse(ar.customAllReduce());
        // 2 nodes of 8: bus bandwidth min(370.8, 8 NICs x 50) = 370.8 GB/s; 30 ring steps, 2 over the network.
        // Ring LL128: 14 + 28 x 1.9 + 2 x 4.0 = 75.2 us, 0.92 x 370.8 x 16/30 = 181.94 GB/s -> 80.96 us.
        // Tree LL128: 14 + 2 x (7 x 1.25 + 1 x 8.5) = 48.5 us; 370.8 x 0.92 x 120/128 x 0.5 = 159.9075 GB/s, corrected
        // x 0.6 at log2(1 MiB / 64) = 14: 95.9445 GB/s -> 48.5 + 1,048,576 / 95,944.5 = 59.428987 us, the fastest
        assertEquals(48.5 + 1_048_576 / 95_944.5, ar.timeUs(1 << 20), 1e-6);
        assertTrue(ar.describe().contains("across 2 nodes"), ar.describe());
    }
}
