package io.servesim.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.engine.SpecDecodeConfig;
import io.servesim.testing.RepoFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launch commands a plan writes for its recommended candidate, on the engine core its base config runs. */
class LaunchCommandTest {
    @Test
    void aBundledModelIsServedByItsHubIdAsTheHubSpellsIt() {
        // models.yaml: id meta-llama/llama-3.1-8b-instruct, source https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct
        assertEquals("meta-llama/Llama-3.1-8B-Instruct", LaunchCommand.served("meta-llama/llama-3.1-8b-instruct"));
        assertEquals("meta-llama/Llama-3.1-8B-Instruct", LaunchCommand.served("META-LLAMA/Llama-3.1-8b-Instruct"));
        assertEquals("meta-llama/Llama-3.1-8B-Instruct", LaunchCommand.served("llama-3.1-8b-instruct"), "the file stem");
    }

    @Test
    void anAliasAnUnknownIdAndAConfigPathAreServedAsWritten() {
        // meta-llama/Llama-3.1-8B is an alias of the instruct entry: another model on the Hub, kept as written
        assertEquals("meta-llama/Llama-3.1-8B", LaunchCommand.served("meta-llama/Llama-3.1-8B"));
        assertEquals("acme/Giant-1T", LaunchCommand.served("acme/Giant-1T"));
        assertEquals("models/mine", LaunchCommand.served("models/mine/config.json"), "vLLM loads a local model from its folder");
    }

    @Test
    void aPdDeploymentGetsItsNixlPortsAndTheProxyThatJoinsThem() throws Exception {
        PlanSpec plan = PlanFile.bind(CapacitySearchTest.config("""
                name: pd
                base:
                  deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, latency_model: roofline,
                               kv_cache_dtype: fp8, pd: {transfer: {latency: 1ms, bandwidth: 50GB/s}}}
                  workload: {scenario: chat, arrival: {process: poisson}}
                target_rate_rps: 4
                slo: [{ttft_p99_ms: 500}]
                space: {gpus: [H100], tp: [2], pd: {prefill: [1], decode: [2]}}
                """), Path.of(".").toAbsolutePath());
        Candidate pd = plan.candidates().get(0);
        assertSame(VllmCommand.INSTANCE, LaunchCommand.of(plan, pd));
        String text = VllmCommand.INSTANCE.text(plan, pd, 4, 100);
        // 1 prefill + 2 decode instances at TP 2: GPUs 0-1, 2-3, 4-5 of node 0, ports 8000-8002, NIXL ports 5600-5602
        assertTrue(text.contains("CUDA_VISIBLE_DEVICES=0,1 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve"
                + " meta-llama/Llama-3.1-8B-Instruct --port 8000 --tensor-parallel-size 2"), text);
        assertTrue(text.contains("CUDA_VISIBLE_DEVICES=4,5 VLLM_NIXL_SIDE_CHANNEL_PORT=5602 vllm serve"), text);
        assertTrue(text.contains(" --kv-cache-dtype fp8 --kv-transfer-config"), "the fp8 KV cache, on every instance: " + text);
        assertTrue(text.contains("toy_proxy_server.py --port 8192 --prefiller-hosts localhost --prefiller-ports 8000"
                + " --decoder-hosts localhost localhost --decoder-ports 8001 8002"), text);
    }

    @Test
    void instancesAreLaidOutOnTheGpuRowsNodesAndATensorParallelGroupLargerThanOneSpansWholeNodes(@TempDir Path dir)
            throws Exception {
        // a row of 4 GPUs to a node (the bundled H100-PCIe row, gpus_per_node 4): 3 replicas at TP 2 on GPUs 0-1 and 2-3
        // of node 0, then 0-1 of node 1
        Files.writeString(dir.resolve("g.yaml"), Files.readString(RepoFiles.path("sweeps/hardware/h100-pcie.yaml"))
                .replace("gpus_per_node: 8", "gpus_per_node: 4"));
        PlanSpec four = PlanFile.bind(CapacitySearchTest.config("""
                name: four
                base:
                  deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100-PCIE, gpus: g.yaml, latency_model: roofline}
                  workload: {scenario: chat, arrival: {process: poisson}}
                target_rate_rps: 4
                slo: [{ttft_p99_ms: 500}]
                space: {gpus: [H100-PCIE], tp: [2], replicas: [3]}
                prices: {H100-PCIE: 2}
                """), dir);
        String text = VllmCommand.INSTANCE.text(four, four.candidates().get(0), 4, 100);
        assertTrue(text.contains("One vLLM server per engine instance, 4 GPUs to a node."), text);
        assertTrue(text.contains("# node 1\nCUDA_VISIBLE_DEVICES=0,1 vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8002"), text);

        // Llama-3.1-70B at TP 16 on H100s (8 to a node): each replica on two whole nodes, one process group over them
        String wideYaml = """
                name: wide
                base:
                  deployment: {model: meta-llama/llama-3.1-70b-instruct, hardware: H100, latency_model: roofline}
                  workload: {scenario: chat, arrival: {process: poisson}}
                target_rate_rps: 4
                slo: [{ttft_p99_ms: 500}]
                space: {gpus: [H100], tp: [16], replicas: [2]}
                """;
        PlanSpec wide = PlanFile.bind(CapacitySearchTest.config(wideYaml), Path.of(".").toAbsolutePath());
        String vllm = VllmCommand.INSTANCE.text(wide, wide.candidates().get(0), 4, 100);
        assertTrue(vllm.contains("# node 2\n# TP 16 spans nodes 2-3 (8 GPUs each): start a Ray cluster over them (ray start"
                + " --head on node 2, ray start --address=<its address>:6379 on the others), then on node 2:\n"
                + "CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 vllm serve meta-llama/Llama-3.1-70B-Instruct --port 8001"
                + " --tensor-parallel-size 16"), vllm);
        assertTrue(vllm.contains(" --distributed-executor-backend ray\n"), vllm);
        PlanSpec wideSglang = PlanFile.bind(CapacitySearchTest.config(wideYaml.replace("  workload:",
                "  engine: {kind: sglang}\n  workload:")), Path.of(".").toAbsolutePath());
        String sglang = SglangCommand.INSTANCE.text(wideSglang, wideSglang.candidates().get(0), 4, 100);
        assertTrue(sglang.contains(" --nnodes 2 --node-rank <0 to 1> --dist-init-addr node2:5001"), sglang);
    }

    @Test
    void anSglangPlanWritesSglangServersWithItsSchedulerSettingsAndTheRouterInPdMode() throws Exception {
        PlanSpec plan = PlanFile.bind(CapacitySearchTest.config("""
                name: pd
                base:
                  deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, latency_model: roofline,
                               kv_cache_dtype: fp8, pd: {transfer: {latency: 1ms, bandwidth: 50GB/s}}}
                  engine: {kind: sglang, schedule_policy: lpm, page_size: 16, chunked_prefill_size: 4096,
                           init_new_token_ratio: 0.5, max_model_len: 8192}
                  workload: {scenario: chat, arrival: {process: poisson}}
                target_rate_rps: 4
                slo: [{ttft_p99_ms: 500}]
                space: {gpus: [H100], tp: [2], pd: {prefill: [2], decode: [1]}}
                """), Path.of(".").toAbsolutePath());
        assertSame(SglangCommand.INSTANCE, LaunchCommand.of(plan, plan.candidates().get(0)));
        assertEquals("sglang-launch.txt", LaunchCommand.of(plan, plan.candidates().get(0)).file());
        String text = SglangCommand.INSTANCE.text(plan, plan.candidates().get(0), 4, 100);
        // 2 prefill + 1 decode instances at TP 2: GPUs 0-1, 2-3, 4-5, ports 8000-8002; prefill bootstrap ports 8998, 8999;
        // the ratio's initial value differs from SGLang's 0.7, so it is set in SGLang's environment variable;
        // max_num_seqs and max_prefill_tokens are the defaults (256 here, SGLang's 16384)
        assertTrue(text.contains("CUDA_VISIBLE_DEVICES=0,1 SGLANG_INIT_NEW_TOKEN_RATIO=0.5 python -m sglang.launch_server"
                + " --model-path meta-llama/Llama-3.1-8B-Instruct --port 8000 --tp-size 2 --max-running-requests "), text);
        assertTrue(text.contains(" --page-size 16 --chunked-prefill-size 4096 --max-prefill-tokens 16384 --schedule-policy lpm"
                + " --schedule-conservativeness 1 --mem-fraction-static 0.90 --context-length 8192 --kv-cache-dtype fp8_e4m3"
                + " --disaggregation-mode prefill --disaggregation-transfer-backend nixl --disaggregation-bootstrap-port 8999"),
                text);
        assertTrue(text.contains("--port 8002 --tp-size 2"), text);
        assertTrue(text.contains("--disaggregation-mode decode --disaggregation-transfer-backend nixl\n"), text);
        assertTrue(text.contains("python -m sglang_router.launch_router --pd-disaggregation"
                + " --prefill http://localhost:8000 8998 --prefill http://localhost:8001 8999"
                + " --decode http://localhost:8002 --host 0.0.0.0 --port 8192"), text);
        assertFalse(text.contains("vllm"), text);
    }

    @Test
    void eachCandidateGetsTheCommandsOfTheCoreItsEngineVariantRuns() throws Exception {
        PlanSpec plan = PlanFile.bind(CapacitySearchTest.config("""
                name: cores
                base:
                  deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, latency_model: roofline}
                  workload: {scenario: chat, arrival: {process: poisson}}
                target_rate_rps: 4
                slo: [{ttft_p99_ms: 500}]
                space: {gpus: [H100], tp: [1], replicas: {min: 1, max: 1}, engine: {vllm: {}, sglang: {kind: sglang}}}
                """), Path.of(".").toAbsolutePath());
        for (Candidate c : plan.candidates()) {
            LaunchCommand expected = c.engine().equals("sglang") ? SglangCommand.INSTANCE : VllmCommand.INSTANCE;
            assertSame(expected, LaunchCommand.of(plan, c), c.id());
        }
        assertEquals(2, plan.candidates().size());
    }

    @Test
    void speculativeDecodingIsPassedAsVllmsSpeculativeConfig() {
        // vLLM's SpeculativeConfig: a draft model by its Hub id, n-gram and MTP by method
        assertEquals("{\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"num_speculative_tokens\":4}",
                VllmCommand.speculative(SpecDecodeConfig.of(SpecDecodeConfig.Method.DRAFT, 4, 0.7,
                        "meta-llama/llama-3.1-8b-instruct")));
        assertEquals("{\"method\":\"ngram\",\"num_speculative_tokens\":3}",
                VllmCommand.speculative(SpecDecodeConfig.of(SpecDecodeConfig.Method.NGRAM, 3, 0.5, null)));
        assertTrue(VllmCommand.speculative(SpecDecodeConfig.of(SpecDecodeConfig.Method.EAGLE, 2, 0.8, null))
                .startsWith("{\"method\":\"eagle\",\"model\":\"<the EAGLE head"));
    }
}
