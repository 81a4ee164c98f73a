package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.StrictJson;
import io.servesim.metrics.RequestRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SGLang core on a pool shorter than the model's context (2,000 one-token pages: a request limit of 1,999 tokens)
 * serves what a vLLM engine of the same 2,000 tokens with max_model_len 1,999 serves: prompts of 500 to 3,000 tokens,
 * 100 output tokens each. A prompt at the limit or beyond is dropped at arrival (SGLang aborts an input longer than
 * max_req_input_len); one whose output would pass it has its max_new_tokens clipped to the limit and completes
 * length-capped. Before, such a request's unclipped estimate could never fit the pool, it was dropped as never
 * fitting, and the scheduler's batch-is-full flag stayed set on the idle engine, dropping every request after it.
 */
class SglangRequestLimitTest {
    private static final String RUN = """
            seed: 3
            deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100}
            workload: {aggregate_rate: 5, num_requests: 50,
                       input_distribution: {type: uniform, params: {min: 500, max: 3000}},
                       output_distribution: {type: constant, params: {value: 100}}}
            """;

    private static List<RequestRecord> run(String engine) throws Exception {
        List<RequestRecord> records = new ArrayList<>();
        RunPlan.prepare(SimConfigLoader.bind(StrictJson.yaml().readTree(RUN + engine), Path.of("."))).run(records::add);
        return records;
    }

    @Test
    void aPoolShorterThanTheContextServesWhatVllmWithThatMaxModelLenServes() throws Exception {
        List<RequestRecord> sglang = run("engine: {kind: sglang, total_kv_blocks: 2000}\n");
        List<RequestRecord> vllm = run("engine: {total_kv_blocks: 125, max_model_len: 1999}\n");
        assertEquals(50, sglang.size());
        for (RequestRecord r : sglang) {
            if (r.inputTokens() >= 1999) {
                assertEquals("exceeds_max_model_len", r.dropReason(), r.toString());
            } else {
                assertEquals(RequestRecord.COMPLETED, r.status(), "it fits the pool: " + r);
                assertTrue(r.inputTokens() + r.outputTokens() <= 1999, r.toString());
            }
        }
        assertEquals(vllm.stream().map(RequestRecord::status).sorted().toList(),
                sglang.stream().map(RequestRecord::status).sorted().toList());
        assertTrue(sglang.stream().anyMatch(r -> r.status().equals(RequestRecord.COMPLETED) && r.lengthCapped()),
                "some output clipped at the limit");
    }
}
