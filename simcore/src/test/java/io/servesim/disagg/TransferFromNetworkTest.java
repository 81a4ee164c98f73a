package io.servesim.disagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import io.servesim.run.RunPlan;
import io.servesim.run.SimConfigLoader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * KV transfer links not given in {@code deployment.pd.transfer} are the pools' GPUs' network ({@code gpus.yaml}): an
 * H100's is one 400 Gb/s ConnectX-7 per GPU (50 GB/s) at 2.7 us, an A100's one 200 Gb/s ConnectX-6 (25 GB/s).
 */
class TransferFromNetworkTest {
    private static final String BASE = PdRuns.BASE.replace(", transfer: {latency: 1ms, bandwidth: 50GB/s}", "");

    private static TransferSpec transfer(String... overrides) {
        return RunPlan.prepare(SimConfigLoader.bind(PdRuns.tree(BASE, overrides), Path.of(""))).setup().pd().transfer();
    }

    @Test
    void h100PoolsMoveKvOverTheirNicsAtTheNetworksLatency() {
        TransferSpec t = transfer();
        assertEquals(50.0, t.bandwidthGbPerS());
        assertEquals(3, t.latencyUs()); // 2.7 us rounded up to a microsecond
    }

    @Test
    void theSlowerPoolsNetworkSetsTheLinkAndAGivenValueIsKept() {
        // decode pool on A100s: min(50, 25) GB/s; a latency given is kept
        TransferSpec t = transfer("deployment.pd.decode.hardware=A100-80GB", "deployment.pd.transfer={latency: 1ms}");
        assertEquals(25.0, t.bandwidthGbPerS());
        assertEquals(1_000, t.latencyUs());
    }

    @Test
    void aPoolWithoutAKnownGpuNeedsTheLinkGiven() {
        ConfigException e = assertThrows(ConfigException.class, () -> RunPlan.prepare(SimConfigLoader.bind(PdRuns.tree(
                BASE, "deployment.hardware=null", "deployment.coefficients={alpha: [0, 0, 0], beta: [1000, 1, 1]}",
                "engine.total_kv_blocks=10000", "engine.max_model_len=8192"), Path.of(""))));
        assertTrue(e.getMessage().contains("deployment.pd.transfer.bandwidth: required: a pool's GPU is not known"),
                e.getMessage());
    }
}
