package io.servesim.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import org.junit.jupiter.api.Test;

/** An fp8 KV cache (vLLM's --kv-cache-dtype fp8): one byte per element for capacity, decode reads and the models' choice. */
class KvCacheDtypeTest {
    private static final ModelArchitecture LLAMA_8B = ModelCatalog.builtIn().lookup("meta-llama/llama-3.1-8b-instruct", "x");
    private static final GpuSpec H100 = GpuCatalog.builtIn().lookup("H100", "x");

    @Test
    void fp8HalvesTheKvBytesOfAToken() {
        // Llama-3.1-8B: 32 layers x 2 (K and V) x 8 KV heads x 128 dims = 65,536 elements per token; bf16 2 bytes, fp8 1
        assertEquals(131_072, LLAMA_8B.kvBytesPerToken());
        assertEquals(65_536, LLAMA_8B.withKvCacheBytes(1).kvBytesPerToken());
        assertEquals(32_768, LLAMA_8B.withKvCacheBytes(1).kvBytesPerTokenPerGpu(2), "KV heads shard over TP 2");
        assertEquals(LLAMA_8B.weightBytes(), LLAMA_8B.withKvCacheBytes(1).weightBytes(), "weights are untouched");
    }

    @Test
    void theSameMemoryHoldsTwiceTheBlocks() {
        // KvCapacityTest: 52.17 GiB of KV on an H100 at TP 1 is 26,709 blocks of 16 x 131,072 B = 2 MiB; at 1 MiB per
        // block the same bytes hold 2 x 26,709 blocks, or one more when the 2 MiB division left at least 1 MiB over
        int bf16 = KvCapacity.estimate(LLAMA_8B, H100, 1, 16, 0.9, 8192, 1024, "deployment").totalBlocks();
        int fp8 = KvCapacity.estimate(LLAMA_8B.withKvCacheBytes(1), H100, 1, 16, 0.9, 8192, 1024, "deployment").totalBlocks();
        assertEquals(26_709, bf16);
        assertTrue(fp8 == 2 * bf16 || fp8 == 2 * bf16 + 1, fp8 + " blocks");
    }

    @Test
    void aDecodeStepReadsHalfTheKvBytes() {
        // RooflineModelTest's Llama-3.1-8B decode of one sequence at 1,000 tokens of context: 6,629.78 us of GPU work,
        // of which attention's KV reads are 1,001 x 131,072 B / 3.015e12 B/s = 43.517 us; at fp8, 21.758 us:
        // 6,629.78 - 21.758 = 6,608.02 -> 6,608 us (the CPU's 102 us overlaps it)
        RooflineConstants c = new RooflineConstants(0.8, 0.9, 0.9, 5, 100, 2, "test");
        StepShape step = new StepShape();
        step.addDecode(1000);
        assertEquals(6_630, new RooflineModel(LLAMA_8B, H100, 1, c).stepTimeUs(step));
        assertEquals(6_608, new RooflineModel(LLAMA_8B.withKvCacheBytes(1), H100, 1, c).stepTimeUs(step));
    }

    @Test
    void onlyTheRooflinePricesItAndAutoTakesTheRoofline() {
        for (String kind : new String[] {"blackbox", "profiled"}) {
            ConfigException e = assertThrows(ConfigException.class, () -> LatencyModels.resolve(spec(kind), "deployment"));
            assertEquals("deployment.kv_cache_dtype", e.problems().get(0).path(), kind);
            assertTrue(e.getMessage().contains("the KV cache in the model's dtype")
                    && e.getMessage().contains("valid with deployment.latency_model: roofline or auto (which then takes"
                    + " the roofline), or kv_cache_dtype auto"), e.getMessage());
            // a replay chooses its model by a flag that takes no auto, and cannot change the run's cache
            e = assertThrows(ConfigException.class, () -> LatencyModels.resolve(spec(kind), "replay", "--latency-model"));
            assertTrue(e.getMessage().endsWith("cannot price this; valid with --latency-model roofline"), e.getMessage());
        }
        // Llama-3.1-8B on H100 at TP 1 has trained coefficients, which auto takes with the cache in the model's dtype
        assertEquals("blackbox", LatencyModels.resolve(new LatencySpec("auto", "meta-llama/llama-3.1-8b-instruct", "H100", 1,
                null), "deployment").model().name());
        ResolvedLatency fp8 = LatencyModels.resolve(spec("auto"), "deployment");
        assertEquals("roofline", fp8.model().name());
        assertEquals(65_536, fp8.architectureOrNull().kvBytesPerToken());
        assertTrue(fp8.model().describe().contains("KV cache at 1 byte(s) per element"), fp8.model().describe());
    }

    private static LatencySpec spec(String kind) {
        return new LatencySpec(kind, "meta-llama/llama-3.1-8b-instruct", "H100", 1, null, null, null, GpuCatalog.builtIn(),
                KvCacheDtype.FP8, Quantization.AUTO);
    }
}
