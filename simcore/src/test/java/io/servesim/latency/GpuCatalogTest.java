package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GpuCatalogTest {
    private final GpuCatalog catalog = GpuCatalog.builtIn();

    @Test
    void canonicalNames() {
        assertEquals(List.of("H100", "H200", "B200", "A100-80GB", "L40S", "RTX4090", "RTXPRO6000"), catalog.names());
    }

    @ParameterizedTest
    @CsvSource({
        "H100, H100", "h100-sxm, H100", "H100-80GB, H100", "NVIDIA H100 80GB HBM3, H100",
        "A100, A100-80GB", "A100-80, A100-80GB", "a100_sxm, A100-80GB", "A100-SXM4-80GB, A100-80GB",
        "4090, RTX4090", "RTX-4090, RTX4090", "rtx 4090, RTX4090",
        "RTX-PRO-6000, RTXPRO6000", "NVIDIA RTX PRO 6000 Blackwell Server Edition, RTXPRO6000",
        "l40s, L40S", "H200-SXM, H200", "b200, B200"
    })
    void aliasesResolveCaseInsensitively(String alias, String canonical) {
        assertEquals(canonical, catalog.lookup(alias, "deployment.hardware").name());
    }

    @Test
    void unknownNameNamesThePathAndTheKnownGpus() {
        ConfigException e = assertThrows(ConfigException.class, () -> catalog.lookup("V100", "deployment.hardware"));
        assertEquals("deployment.hardware", e.problems().get(0).path());
        assertTrue(e.getMessage().contains("unknown GPU 'V100'; known: H100, H200, B200, A100-80GB, L40S, RTX4090, RTXPRO6000"),
                e.getMessage());
    }

    @Test
    void h100ValuesComeFromBlisHardwareConfig() {
        GpuSpec h100 = catalog.lookup("H100", "x");
        assertEquals(989.5, h100.bf16Tflops());
        assertEquals(1979.0, h100.fp8Tflops());
        assertEquals(3.35, h100.memoryBandwidthTBps());
        assertEquals(80.0, h100.memoryGiB());
        assertEquals(132, h100.smCount());
        assertTrue(h100.source().contains("hardware_config.json"));
    }

    @Test
    void pricesComeWithTheirSourceAndOnlyWhereTheSurveyHasOne() {
        // the Mercatus survey's specialty-provider ranges, midpoints: H100 (2.50 + 3.50) / 2 = 3.00,
        // H200 (3.50 + 4.50) / 2 = 4.00, A100 80GB (1.10 + 1.50) / 2 = 1.30
        assertEquals(3.00, catalog.price("H100").usdPerGpuHour());
        assertEquals(4.00, catalog.price("h200-sxm").usdPerGpuHour());
        assertEquals(1.30, catalog.price("A100").usdPerGpuHour());
        assertTrue(catalog.price("H100").source().contains("mercatus-ai.com"), catalog.price("H100").source());
        assertEquals(GpuSpec.Price.NONE, catalog.price("L40S"));
        assertEquals(GpuSpec.Price.NONE, catalog.price("V100"), "an unknown GPU has no price");
        assertEquals(List.of("H100", "H200", "A100-80GB"), catalog.pricedNames());
    }

    /**
     * vLLM's attention kernel follows each bundled row's compute capability (CUDA GPUs list): FlashAttention-2 on Ampere,
     * Ada and RTX Blackwell, which then need their boost clock; FlashAttention-3 on Hopper; FlashInfer on B200.
     */
    @Test
    void everyBundledRowNamesItsComputeCapabilityAndTheFlashAttention2OnesTheirClock() {
        Map<String, AttentionBackend> expected = Map.of("H100", AttentionBackend.FLASH_ATTENTION_3, "H200",
                AttentionBackend.FLASH_ATTENTION_3, "B200", AttentionBackend.OTHER, "A100-80GB", AttentionBackend.FLASH_ATTENTION_2,
                "L40S", AttentionBackend.FLASH_ATTENTION_2, "RTX4090", AttentionBackend.FLASH_ATTENTION_2, "RTXPRO6000",
                AttentionBackend.FLASH_ATTENTION_2);
        assertEquals(expected.keySet(), new java.util.HashSet<>(catalog.names()));
        for (String name : catalog.names()) {
            GpuSpec g = catalog.lookup(name, "x");
            assertEquals(expected.get(name), AttentionBackend.of(g.computeCapability()), name);
            assertTrue(AttentionBackend.of(g.computeCapability()) != AttentionBackend.FLASH_ATTENTION_2 || g.boostClockMhz() > 0, name);
        }
        // the clock is the one of the datasheet's peak: RTX 4090 128 SMs x 512 dense BF16 FLOPs per clock x 2,520 MHz
        assertEquals(165.2, 128 * 512 * catalog.lookup("RTX4090", "x").boostClockMhz() * 1e6 / 1e12, 0.05);
        assertEquals(503.8, 188 * 1024 * catalog.lookup("RTXPRO6000", "x").boostClockMhz() * 1e6 / 1e12, 0.05);
    }

    @Test
    void aUserRowMayCarryAPriceButNotWithoutItsSource(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws java.io.IOException {
        String row = "gpus:\n  - {name: MI300X, bf16_tflops: 1307, memory_bandwidth_tbps: 5.3, memory_gib: 192, sm_count: 304, compute_capability: 9.0,"
                + " link: {type: pcie, generation: 5, lanes: 16, p2p: true, latency_us: 1.0}, gpus_per_node: 8,"
                + " network: {bandwidth_gbps: 50, latency_us: 2.7}, host_link_gbps: 64, source: datasheet";
        java.nio.file.Path priced = java.nio.file.Files.writeString(tmp.resolve("priced.yaml"),
                row + ", usd_per_gpu_hour: 2.5, price_source: my contract}\n");
        assertEquals(new GpuSpec.Price(2.5, "my contract"), catalog.withFile(priced, "deployment.gpus").price("MI300X"));
        java.nio.file.Path bare = java.nio.file.Files.writeString(tmp.resolve("bare.yaml"), row + ", usd_per_gpu_hour: 2.5}\n");
        ConfigException e = assertThrows(ConfigException.class, () -> catalog.withFile(bare, "deployment.gpus"));
        assertEquals("deployment.gpus: " + bare + " gpus[0].price_source", e.problems().get(0).path());
        java.nio.file.Path orphan = java.nio.file.Files.writeString(tmp.resolve("orphan.yaml"), row + ", price_source: x}\n");
        e = assertThrows(ConfigException.class, () -> catalog.withFile(orphan, "deployment.gpus"));
        assertTrue(e.getMessage().contains("gpus[0].price_source: only with usd_per_gpu_hour"), e.getMessage());
    }

    @Test
    void rtxPro6000MatchesTheValidationRunsCard() {
        GpuSpec pro = catalog.lookup("RTXPRO6000", "x");
        assertEquals(1.597, pro.memoryBandwidthTBps());
        assertEquals(503.8, pro.bf16Tflops());
        assertEquals(95.6, pro.memoryGiB());
        // NCCL measured 30.7 GB/s of bus bandwidth between two of them (LLMServingSim's hardware.yaml), not the
        // 16 x 240 / 80 = 48 GB/s its topology model gives PCIe Gen5 x16; the H100's NVLink keeps NCCL's estimate
        assertEquals(30.7, pro.interconnect().effectiveLinkGBps());
        assertTrue(pro.interconnect().describe().contains("NCCL measured at 30.7 GB/s bus bandwidth"),
                pro.interconnect().describe());
        assertEquals(450 * 20.6 / 25, catalog.lookup("H100", "x").interconnect().effectiveLinkGBps(), 1e-9);
        // and timed all three collectives between two of them, 4 KiB to 20 MiB (the same file's samples)
        MeasuredCollectives timed = pro.interconnect().measuredCollectives();
        assertEquals(2, timed.ranks());
        assertEquals(10.50, timed.timeUs(MeasuredCollectives.Collective.ALL_GATHER, 4096));
        assertEquals(786.53, timed.timeUs(MeasuredCollectives.Collective.REDUCE_SCATTER, 20 << 20));
        assertEquals(471.12, timed.timeUs(MeasuredCollectives.Collective.ALL_REDUCE, 16 << 20));
        assertTrue(pro.interconnect().describe().contains(
                "all-gather, reduce-scatter, all-reduce of 2 GPUs timed from 4 KiB to 20 MiB"), pro.interconnect().describe());
        assertEquals(MeasuredCollectives.NONE, catalog.lookup("H100", "x").interconnect().measuredCollectives());
    }

    /**
     * A user row may time collectives between its GPUs. Refused: sizes out of order, a collective with fewer times than
     * sizes, none timed at all, a time shorter than the link carries its bytes in (a 1 MiB all-gathered chunk in 10 us
     * over 2 GPUs is 1,048,576 x 1 / 10 = 104,857.6 B/us, 104.9 GB/s of bus bandwidth over a link of 63.0), one size
     * (nothing to extrapolate along), a size past 1 TiB and more ranks than a node holds.
     */
    @Test
    void measuredCollectivesAreCheckedSizeBySize(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws java.io.IOException {
        String row = "gpus:\n  - {name: MI300X, bf16_tflops: 1307, memory_bandwidth_tbps: 5.3, memory_gib: 192, sm_count: 304, compute_capability: 9.0,"
                + " link: {type: pcie, generation: 5, lanes: 16, p2p: true, latency_us: 1.0, measured_collectives: {%s}},"
                + " gpus_per_node: 8, network: {bandwidth_gbps: 50, latency_us: 2.7}, host_link_gbps: 64, source: datasheet}\n";
        java.nio.file.Path ok = java.nio.file.Files.writeString(tmp.resolve("ok.yaml"), String.format(row,
                "ranks: 2, bytes: [4096, 1048576], all_gather_us: [10, 50]"));
        Interconnect link = catalog.withFile(ok, "deployment.gpus").lookup("MI300X", "x").interconnect();
        // a 2 MiB all-gather of two ranks: a 1 MiB chunk, the last sample
        assertEquals(50, new GatherScatter(link, 2).allGatherUs(2 << 20), 1e-12);
        // above it, along the samples' slope, 40 us per 1,044,480 B (26.1 GB/s, under the link's 63.0): a 2 MiB chunk
        // takes 50 + 1,048,576 x 40 / 1,044,480 = 90.156863 us
        assertEquals(50 + 1048576 * 40.0 / 1044480, new GatherScatter(link, 2).allGatherUs(4 << 20), 1e-9);
        // a flat table would extrapolate faster than the link: capped at 63.0 GB/s of bus bandwidth, 1 B per
        // 1 / 63,015.38 us (PCIe Gen5 x16 = 16 x 32 x 128 / 130 / 8 GB/s)
        java.nio.file.Path flat = java.nio.file.Files.writeString(tmp.resolve("flat.yaml"), String.format(row,
                "ranks: 2, bytes: [4096, 8192], all_gather_us: [10, 10]"));
        Interconnect flatLink = catalog.withFile(flat, "deployment.gpus").lookup("MI300X", "x").interconnect();
        assertEquals(10 + (1048576 - 8192) / (16 * 32e3 * 128 / 130 / 8),
                new GatherScatter(flatLink, 2).allGatherUs(2 * 1048576), 1e-9);
        assertEquals(new GatherScatter(link, 2).ncclModelUs(2 << 20), new GatherScatter(link, 2).reduceScatterUs(2 << 20),
                1e-12, "a collective the row did not time stays NCCL's model");
        String[][] bad = {
                {"ranks: 2, bytes: [4096, 4096], all_gather_us: [10, 11]",
                        "measured_collectives.bytes[1]: must be a whole number of bytes above the size before it (4096), at most"
                        + " 1099511627776 (1 TiB), got 4096"},
                {"ranks: 2, bytes: [4096, 8192], reduce_scatter_us: [10]",
                        "measured_collectives.reduce_scatter_us: must be a list of 2 microseconds, one per size in bytes, got 1 values"},
                {"ranks: 2, bytes: [4096, 8192]", "measured_collectives: times no collective: give one or more of"
                        + " [all_gather_us, reduce_scatter_us, all_reduce_us]"},
                {"ranks: 2, bytes: [4096, 1048576], all_gather_us: [5, 10]", "measured_collectives.all_gather_us[1]: 10 us for"
                        + " 1048576 B over 2 GPUs is a bus bandwidth of 104.9 GB/s, above the 63.0 GB/s the link carries per"
                        + " direction"},
                {"bytes: [4096, 8192], all_gather_us: [10, 11]", "measured_collectives.ranks: required: the GPUs the"
                        + " collectives ran over"},
                {"ranks: 2, bytes: [4096], all_gather_us: [10]", "measured_collectives.bytes: must be a list of 2 sizes or"
                        + " more, got [4096]"},
                {"ranks: 2, bytes: [4096, 100000000000000000000], all_gather_us: [10, 11]",
                        "measured_collectives.bytes[1]: must be a whole number of bytes above the size before it (4096), at"
                        + " most 1099511627776 (1 TiB), got 100000000000000000000"},
                {"ranks: 16, bytes: [4096, 8192], all_gather_us: [10, 11]", "measured_collectives.ranks: 16 GPUs, more than"
                        + " the 8 of a node (gpus_per_node)"}};
        for (String[] c : bad) {
            java.nio.file.Path f = java.nio.file.Files.writeString(tmp.resolve("bad.yaml"), String.format(row, c[0]));
            ConfigException e = assertThrows(ConfigException.class, () -> catalog.withFile(f, "deployment.gpus"), c[0]);
            assertTrue(e.getMessage().contains("gpus[0].link." + c[1]), e.getMessage());
        }
    }

    @Test
    void aMeasuredBusBandwidthIsAtMostWhatTheLinkCarries(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws java.io.IOException {
        String row = "gpus:\n  - {name: MI300X, bf16_tflops: 1307, memory_bandwidth_tbps: 5.3, memory_gib: 192, sm_count: 304, compute_capability: 9.0,"
                + " link: {type: pcie, generation: 5, lanes: 16, p2p: true, latency_us: 1.0, measured_bus_gbps: %s},"
                + " gpus_per_node: 8, network: {bandwidth_gbps: 50, latency_us: 2.7}, host_link_gbps: 64, source: datasheet}\n";
        java.nio.file.Path measured = java.nio.file.Files.writeString(tmp.resolve("m.yaml"), String.format(row, "25"));
        assertEquals(25.0, catalog.withFile(measured, "deployment.gpus").lookup("MI300X", "x").interconnect()
                .effectiveLinkGBps());
        // PCIe Gen5 x16 carries 16 x 32 x 128 / 130 / 8 = 63.0 GB/s a direction: 70 is more than the link
        java.nio.file.Path over = java.nio.file.Files.writeString(tmp.resolve("o.yaml"), String.format(row, "70"));
        ConfigException e = assertThrows(ConfigException.class, () -> catalog.withFile(over, "deployment.gpus"));
        assertTrue(e.getMessage().contains("gpus[0].link.measured_bus_gbps: must be a number in (0, 63.0] GB/s, got 70"),
                e.getMessage());
    }

    @Test
    void eightBitWeightsUseFp8PeakWhenTheGpuHasIt() {
        GpuSpec h100 = catalog.lookup("H100", "x");
        GpuSpec a100 = catalog.lookup("A100", "x");
        assertEquals(1979.0e12, h100.peakFlopsPerSecond(1.0));
        assertEquals(989.5e12, h100.peakFlopsPerSecond(2.0));
        assertEquals(312.0e12, a100.peakFlopsPerSecond(1.0), "A100 has no FP8 tensor cores");
    }
}
