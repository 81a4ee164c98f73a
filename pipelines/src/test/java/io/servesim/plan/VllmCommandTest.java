package io.servesim.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The model {@code vllm serve} is given for a config's deployment.model. */
class VllmCommandTest {
    @Test
    void aBundledModelIsServedByItsHubIdAsTheHubSpellsIt() {
        // models.yaml: id meta-llama/llama-3.1-8b-instruct, source https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct
        assertEquals("meta-llama/Llama-3.1-8B-Instruct", VllmCommand.served("meta-llama/llama-3.1-8b-instruct"));
        assertEquals("meta-llama/Llama-3.1-8B-Instruct", VllmCommand.served("META-LLAMA/Llama-3.1-8b-Instruct"));
        assertEquals("meta-llama/Llama-3.1-8B-Instruct", VllmCommand.served("llama-3.1-8b-instruct"), "the file stem");
    }

    @Test
    void anAliasAnUnknownIdAndAConfigPathAreServedAsWritten() {
        // meta-llama/Llama-3.1-8B is an alias of the instruct entry: another model on the Hub, kept as written
        assertEquals("meta-llama/Llama-3.1-8B", VllmCommand.served("meta-llama/Llama-3.1-8B"));
        assertEquals("acme/Giant-1T", VllmCommand.served("acme/Giant-1T"));
        assertEquals("models/mine", VllmCommand.served("models/mine/config.json"), "vLLM loads a local model from its folder");
    }

    @Test
    void aPdDeploymentGetsItsNixlPortsAndTheProxyThatJoinsThem() throws Exception {
        PlanSpec plan = PlanFile.bind(CapacitySearchTest.config("""
                name: pd
                base:
                  deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, latency_model: roofline,
                               pd: {transfer: {latency: 1ms, bandwidth: 50GB/s}}}
                  workload: {scenario: chat, arrival: {process: poisson}}
                target_rate_rps: 4
                slo: [{ttft_p99_ms: 500}]
                space: {gpus: [H100], tp: [2], pd: {prefill: [1], decode: [2]}}
                """), Path.of(".").toAbsolutePath());
        Candidate pd = plan.candidates().get(0);
        String text = VllmCommand.text(plan, pd, 4, 100);
        // 1 prefill + 2 decode instances at TP 2: GPUs 0-1, 2-3, 4-5 of node 0, ports 8000-8002, NIXL ports 5600-5602
        assertTrue(text.contains("CUDA_VISIBLE_DEVICES=0,1 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve"
                + " meta-llama/Llama-3.1-8B-Instruct --port 8000 --tensor-parallel-size 2"), text);
        assertTrue(text.contains("CUDA_VISIBLE_DEVICES=4,5 VLLM_NIXL_SIDE_CHANNEL_PORT=5602 vllm serve"), text);
        assertTrue(text.contains("toy_proxy_server.py --port 8192 --prefiller-hosts localhost --prefiller-ports 8000"
                + " --decoder-hosts localhost localhost --decoder-ports 8001 8002"), text);
    }
}
