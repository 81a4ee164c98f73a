package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import java.util.List;
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
    void rtxPro6000MatchesTheValidationRunsCard() {
        GpuSpec pro = catalog.lookup("RTXPRO6000", "x");
        assertEquals(1.597, pro.memoryBandwidthTBps());
        assertEquals(503.8, pro.bf16Tflops());
        assertEquals(95.6, pro.memoryGiB());
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
