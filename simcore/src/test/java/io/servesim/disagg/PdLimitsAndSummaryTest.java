package io.servesim.disagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.metrics.RequestRecord;
import io.servesim.metrics.RunSummary;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a P/D run refuses before prefill, and what its summary's top level says about the two pools
 * (latency model, KV blocks, requests per instance).
 */
class PdLimitsAndSummaryTest {
    @Test
    void requestsTheDecodePoolRefusesAreDroppedThereBeforeAnyPrefill() {
        // Both pools at max_model_len 6000; prompts uniform in [5000, 5999] after the 256-token shared prefix, i.e.
        // [5256, 6255], each with an output budget of 400. The prefill pool alone accepts every prompt below 6000 (its
        // stage is prompt + 1 token), but the decode pool only prompt + 400 <= 6000, i.e. prompts <= 5600 (about a third).
        // Before the fix the rest were prefilled, transferred nowhere and dropped by the decode pool.
        PdRuns.Result r = PdRuns.run(PdRuns.BASE, "engine.max_model_len=6000", "workload.max_output_tokens=400",
                "workload.input_distribution={type: uniform, params: {min: 5000, max: 5999}}");
        RunSummary s = r.summary();
        assertEquals(300, s.count("injected"));
        assertTrue(s.count("dropped") > 100 && s.count("completed") > 50,
                s.count("dropped") + " dropped, " + s.count("completed") + " completed");
        assertEquals(s.count("completed"), s.pd().remote(), "only requests the decode pool can serve are prefilled");
        assertEquals(s.count("completed"), s.pd().transfers());
        assertEquals(s.count("dropped"), s.pd().local(), "the refused ones go to the decode pool whole");
        long[] routed = s.cluster().requestsPerInstance();
        assertEquals(s.pd().remote(), routed[0] + routed[1], "the prefill pool saw only the servable ones");
        for (RequestRecord rec : r.records()) {
            if (!"dropped".equals(rec.status())) {
                assertTrue(rec.inputTokens() + 400 <= 6000, rec.toString());
                continue;
            }
            assertTrue(rec.inputTokens() + 400 > 6000, rec.toString());
            assertEquals("exceeds_max_model_len", rec.dropReason(), rec.toString());
            assertTrue(rec.instanceId() >= 2, "dropped at a decode instance: " + rec);
            assertEquals(-1, rec.handoff().prefillInstance(), "never prefilled: " + rec);
            assertEquals(-1, rec.firstTokenUs(), rec.toString());
        }
    }

    @Test
    void theTopLevelNamesBothPoolsAndEachPoolReportsItsOwnModelBlocksAndRequests() {
        // 1 prefill replica at the trained coefficients' 29205 blocks, 3 decode replicas at 20000:
        // top-level blocks per instance = (1 x 29205 + 3 x 20000) / 4 = 89205 / 4 = 22301 (rounded down).
        PdRuns.Result r = PdRuns.run(PdRuns.BASE, "deployment.pd.prefill.replicas=1", "deployment.pd.decode.replicas=3",
                "deployment.pd.decode.engine.total_kv_blocks=20000");
        RunSummary s = r.summary();
        assertEquals("pd: prefill blackbox, decode blackbox", s.text("latency_model"));
        assertTrue(s.text("latency_description").startsWith("pd: prefill pool [blackbox meta-llama/llama-3.1-8b-instruct on H100 TP1"),
                s.text("latency_description"));
        assertTrue(s.text("latency_description").contains("], decode pool [blackbox meta-llama/llama-3.1-8b-instruct on H100 TP1"),
                s.text("latency_description"));
        assertEquals(22301, s.count("total_kv_blocks"));
        assertEquals(29205, s.pd().prefill().totalKvBlocks());
        assertEquals(20000, s.pd().decode().totalKvBlocks());
        // every request is remote (decider always): once at the one prefill instance, once over the three decode ones
        assertEquals(300, s.count("completed"));
        assertEquals(1, s.pd().prefill().requestsPerInstance().length);
        assertEquals(300, s.pd().prefill().requestsPerInstance()[0]);
        long[] decode = s.pd().decode().requestsPerInstance();
        assertEquals(3, decode.length);
        assertEquals(300, Arrays.stream(decode).sum());
        // the cluster's CV is the mean of the pools' own: the lone prefill instance's is 0
        double mean = 100;
        double var = Arrays.stream(decode).mapToDouble(c -> (c - mean) * (c - mean)).sum() / 3;
        assertEquals(Math.sqrt(var) / mean / 2, s.cluster().loadImbalanceCv(), 1e-12);
        @SuppressWarnings("unchecked")
        Map<String, Object> pd = (Map<String, Object>) s.toMap().get("pd");
        @SuppressWarnings("unchecked")
        Map<String, Object> prefill = (Map<String, Object>) pd.get("prefill");
        assertEquals("blackbox", prefill.get("latency_model"));
        assertEquals(29205L, prefill.get("total_kv_blocks"));
        assertEquals(java.util.List.of(300L), prefill.get("requests_per_instance"));
    }

    /**
     * An SGLang prefill pool (page_size 16, as the decode pool's blocks) beside a vLLM decode pool with a CPU tier: the
     * prefill pool inherits only the top-level engine settings its core has (max_num_seqs, not block_size or
     * max_num_batched_tokens, which the SGLang core would refuse), and each pool names its core and CPU tier.
     */
    @Test
    void eachPoolReportsItsCoreAndCpuTierAndASwitchedCoreInheritsOnlyItsOwnSettings() {
        PdRuns.Result r = PdRuns.run(PdRuns.BASE, "deployment.pd.prefill.engine={kind: sglang, page_size: 16}",
                "deployment.pd.decode.engine.kv_cpu_blocks=5000");
        RunSummary s = r.summary();
        assertEquals(300, s.count("completed"));
        @SuppressWarnings("unchecked")
        Map<String, Object> pd = (Map<String, Object>) s.toMap().get("pd");
        @SuppressWarnings("unchecked")
        Map<String, Object> prefill = (Map<String, Object>) pd.get("prefill");
        @SuppressWarnings("unchecked")
        Map<String, Object> decode = (Map<String, Object>) pd.get("decode");
        assertEquals("sglang", prefill.get("engine_kind"));
        assertEquals(0L, prefill.get("cpu_kv_blocks"));
        assertEquals("vllm", decode.get("engine_kind"));
        assertEquals(5000L, decode.get("cpu_kv_blocks"));
        @SuppressWarnings("unchecked")
        Map<String, Object> tiers = (Map<String, Object>) s.toMap().get("kv_tiers");
        assertEquals(5000L, ((Number) tiers.get("cpu_kv_blocks")).longValue(), "the larger pool's");
    }

    /**
     * The SGLang core in both pools (page_size 1): a prefill stage's prompt is in the radix tree, locked by its path
     * until its KV transfer completes, and it may hold no page of its own. Under -ea every step checks that each used
     * page has an owner (INV-4); the locked pages of stages out of the batch had none, and the run failed.
     */
    @Test
    void sglangPrefillStagesOwnTheTreePagesTheyLockUntilTheirTransfer() {
        PdRuns.Result r = PdRuns.run(PdRuns.BASE, "engine={kind: sglang, max_num_seqs: 64}");
        assertEquals(300, r.summary().count("completed"));
        assertEquals(300, r.summary().pd().transfers());
    }

    @Test
    void anAggregatedRunKeepsItsFleetsTopLevelAndNoPoolKeys() {
        PdRuns.Result r = PdRuns.run(PdRuns.BASE, "deployment.architecture=aggregated", "deployment.pd=null",
                "deployment.instances=2");
        RunSummary s = r.summary();
        assertEquals("blackbox", s.text("latency_model"));
        assertEquals(29205, s.count("total_kv_blocks"));
        @SuppressWarnings("unchecked")
        Map<String, Object> prefill = (Map<String, Object>) ((Map<String, Object>) s.toMap().get("pd")).get("prefill");
        assertFalse(prefill.containsKey("total_kv_blocks"), prefill.toString());
        assertFalse(prefill.containsKey("engine_kind"), prefill.toString());
    }
}
