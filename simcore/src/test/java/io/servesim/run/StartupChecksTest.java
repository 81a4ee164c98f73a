package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.ConfigException;
import io.servesim.config.StrictJson;
import io.servesim.engine.KvCache;
import io.servesim.engine.KvCacheFootprint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** vLLM's start-up refusals, and sizes the simulator itself cannot hold, found before a run. */
class StartupChecksTest {
    private static final String WORKLOAD = """
            workload: {aggregate_rate: 1, num_requests: 5,
                       input_distribution: {type: constant, params: {value: 100}},
                       output_distribution: {type: constant, params: {value: 10}}}
            """;
    private static final String LLAMA_8B_H100 = "deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100}\n";

    private static RunPlan prepare(String yaml, Path dir) {
        try {
            return RunPlan.prepare(SimConfigLoader.bind(StrictJson.yaml().readTree(yaml + "\n" + WORKLOAD), dir));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<String> problems(String yaml) {
        ConfigException e = assertThrows(ConfigException.class, () -> prepare(yaml, Path.of(".")));
        return e.problems().stream().map(ConfigException.Problem::toString).toList();
    }

    @Test
    void maxModelLenAboveTheModelsMaximumIsRefused() {
        assertEquals(List.of("engine.max_model_len: 200000 is longer than the model's maximum length 131072 "
                        + "(max_position_embeddings of meta-llama/llama-3.1-8b-instruct); vLLM refuses to start"),
                problems(LLAMA_8B_H100 + "engine: {max_model_len: 200000}"));
        assertEquals(List.of("engine.max_model_len: 200000 is longer than the model's maximum length 131072 "
                        + "(max_position_embeddings of meta-llama/llama-3.1-8b-instruct); SGLang refuses to start"),
                problems(LLAMA_8B_H100 + "engine: {kind: sglang, max_model_len: 200000}"));
        assertEquals(131072, prepare(LLAMA_8B_H100 + "engine: {max_model_len: 131072}", Path.of(".")).engineConfig().maxModelLen());
    }

    @Test
    void yarnRopeScalingGivesTheOriginalLengthTimesTheFactor() {
        // deepseek-v2-lite: rope_scaling {type: yarn, factor: 40, original_max_position_embeddings: 4096}: 4096 x 40 = 163840.
        assertEquals(List.of("engine.max_model_len: 163841 is longer than the model's maximum length 163840 "
                        + "(rope_scaling yarn: original_max_position_embeddings 4096 x factor 40 of deepseek-ai/deepseek-v2-lite); vLLM refuses to start"),
                problems("deployment: {model: deepseek-ai/deepseek-v2-lite, hardware: H100, latency_model: roofline}\n"
                        + "engine: {max_model_len: 163841, total_kv_blocks: 20000}"));
    }

    @Test
    void linearRopeScalingMultipliesMaxPositionEmbeddings(@TempDir Path dir) throws Exception {
        ObjectNode hf;
        try (var in = StartupChecksTest.class.getResourceAsStream("/io/servesim/latency/models/llama-2-7b-hf.config.json")) {
            hf = (ObjectNode) StrictJson.json().readTree(in); // the bundled copy of the Hugging Face config
        }
        hf.putObject("rope_scaling").put("type", "linear").put("factor", 4.0);
        Files.writeString(dir.resolve("long.config.json"), hf.toString());
        String deployment = "deployment: {model: " + dir.resolve("long.config.json") + ", hardware: H100}\n";
        // 4096 x 4 = 16384 (vLLM _get_and_verify_max_len: every rope type but su, longrope and llama3 scales).
        assertEquals(16384, prepare(deployment + "engine: {max_model_len: 16384, total_kv_blocks: 2000}", dir).engineConfig().maxModelLen());
        assertEquals(16384, prepare(deployment + "engine: {total_kv_blocks: 2000}", dir).engineConfig().maxModelLen());
        List<String> p = problems(deployment + "engine: {max_model_len: 16385, total_kv_blocks: 2000}");
        assertEquals(List.of("engine.max_model_len: 16385 is longer than the model's maximum length 16384 "
                + "(rope_scaling linear: max_position_embeddings 4096 x factor 4 of long); vLLM refuses to start"), p);
    }

    @Test
    void kvCapacityMustHoldOneSequenceOfMaxModelLen() {
        // Llama-3.1-8B: 32 layers x 2 x 8 KV heads x 128 x 2 bytes = 128 KiB per token. 131072 tokens = 8192 blocks
        // of 16 = 16 GiB; 1000 blocks = 16000 tokens = 1.95 GiB.
        assertEquals(List.of("engine.max_model_len: one sequence of max_model_len 131072 tokens needs 8192 KV blocks of 16 tokens "
                        + "(16.00 GiB), more than the 1000 blocks (16000 tokens, 1.95 GiB) of engine.total_kv_blocks; "
                        + "vLLM refuses to start: lower max_model_len or raise the KV capacity"),
                problems(LLAMA_8B_H100 + "engine: {total_kv_blocks: 1000}"));
        // Without an architecture there are no bytes to quote: 5000 tokens need ceil(5000 / 16) = 313 blocks.
        assertEquals(List.of("engine.max_model_len: one sequence of max_model_len 5000 tokens needs 313 KV blocks of 16 tokens, "
                        + "more than the 100 blocks (1600 tokens) of engine.total_kv_blocks; "
                        + "vLLM refuses to start: lower max_model_len or raise the KV capacity"),
                problems("deployment: {coefficients: {alpha: [0, 0, 0], beta: [1, 1, 1]}}\n"
                        + "engine: {total_kv_blocks: 100, max_model_len: 5000}"));
    }

    /**
     * The same 16,000 tokens of KV in the SGLang core: it starts and limits a request to its pool, 16,000 - 1 = 15,999
     * tokens, below the model's 131,072 (SGLang's max_req_input_len = min(context_len - 1, max_total_num_tokens - 1)).
     * A pool larger than the context leaves max_model_len as it is.
     */
    @Test
    void theSglangCoreStartsOnAPoolShorterThanTheContextAndLimitsRequestsToIt() {
        RunPlan small = prepare(LLAMA_8B_H100 + "engine: {kind: sglang, total_kv_blocks: 16000}", Path.of("."));
        assertEquals(15_999, small.engineConfig().maxModelLen());
        assertTrue(small.kvCapacitySource().endsWith("SGLang caps a request at 15999 tokens, one less than its pool holds"
                + " (max_model_len 131072)"), small.kvCapacitySource());
        RunPlan large = prepare(LLAMA_8B_H100 + "engine: {kind: sglang, total_kv_blocks: 200000}", Path.of("."));
        assertEquals(131_072, large.engineConfig().maxModelLen());
        assertEquals(16_000, StartupChecks.sglangRequestLimit(16_000, 16_001, 1), "max_model_len fits the pool");
        assertEquals(4_095, StartupChecks.sglangRequestLimit(0, 256, 16), "no max_model_len: the pool's 4,096 - 1");
    }

    @Test
    void kvBlocksBeyondWhatOneCacheCanIndexAreRefused() {
        // an explicit value is refused by the setting's range; a derived one (GPU memory) by StartupChecks.fitsSimulator
        assertEquals(List.of("engine.total_kv_blocks: must be in [1, " + KvCache.MAX_BLOCKS + "] blocks, got 2147483647 (at most"
                        + " the largest cache the simulator indexes per instance)"),
                problems(LLAMA_8B_H100 + "engine: {total_kv_blocks: 2147483647}"));
    }

    @Test
    void kvBookkeepingThatCannotFitTheHeapIsRefusedWithTheFigures() {
        // 100000 instances x 29205 blocks (the trained coefficients' 467280 tokens / 16) is ~2.9e9 blocks.
        List<String> p = problems("deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, instances: 100000}\n");
        assertEquals(1, p.size(), p.toString());
        String expected = "deployment.instances: 100000 instances x 29205 KV blocks need about "
                + StartupChecks.gib(100000L * KvCacheFootprint.heapBytes(29205, true)) + " GiB of simulator heap for KV-cache bookkeeping ("
                + KvCacheFootprint.heapBytes(29205, true) / 29205 + " bytes per block), more than 3/4 of the JVM's maximum heap of "
                + StartupChecks.gib(Runtime.getRuntime().maxMemory()) + " GiB; lower deployment.instances or the KV blocks, "
                + "or run the JVM with a larger -Xmx";
        assertEquals(expected, p.get(0));
    }

    @Test
    void pdPoolsMustFitTheHeapTogetherNotOnlyEachAlone() {
        // per = the heap estimate of one 1024-block cache with prefix caching (heapEstimateMatchesTheCachesArrays).
        // The heap is sized so the budget (3/4 of it, HEAP_SHARE_PERCENT) is 9.5 x per (rounded up to whole
        // hundreds of bytes): 5 replicas fit (each pool alone), 5 + 5 = 10 x per do not, 4 + 5 = 9 x per do.
        long per = KvCacheFootprint.heapBytes(1024, true);
        long heap = (long) Math.ceil(9.5 * per / 75) * 100;
        List<ConfigException.Problem> together = new java.util.ArrayList<>();
        StartupChecks.fitsSimulator(5, 1024, true, heap, FleetKeys.pool("deployment.pd.prefill"), together);
        assertEquals(List.of(), together, "one pool alone fits");
        StartupChecks.poolsFitSimulator(5, 1024, true, 5, 1024, true, heap, together);
        assertEquals(1, together.size(), together.toString());
        assertEquals("deployment.pd: the pools' 5 prefill x 1024 and 5 decode x 1024 KV blocks need about "
                + StartupChecks.gib(10 * per) + " GiB of simulator heap for KV-cache bookkeeping together, more than 3/4 of the"
                + " JVM's maximum heap of " + StartupChecks.gib(heap) + " GiB; lower deployment.pd.prefill.replicas,"
                + " deployment.pd.decode.replicas or the KV blocks, or run the JVM with a larger -Xmx", together.get(0).toString());
        List<ConfigException.Problem> fits = new java.util.ArrayList<>();
        StartupChecks.poolsFitSimulator(4, 1024, true, 5, 1024, true, heap, fits);
        assertEquals(List.of(), fits);
    }

    @Test
    void heapEstimateMatchesTheCachesArrays() {
        // meta 2 nodes of 4 ints (32 bytes) + hash 8 + hit scratch, free ids, free runs 4 each = 52 bytes per block, plus the
        // prefix index at most half full: 1024 blocks -> 2048 slots of a long key and its value side by side (16 bytes).
        assertEquals(1024L * 52 + 32 + 4 + 16L * 2048, KvCacheFootprint.heapBytes(1024, true));
        assertEquals(1024L * 52 + 32 + 4 + 16L * 8, KvCacheFootprint.heapBytes(1024, false));
    }
}
