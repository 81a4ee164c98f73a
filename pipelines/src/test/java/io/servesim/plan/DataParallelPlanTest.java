package io.servesim.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A plan's data-parallel fleets ({@code space.dp}): each rank count, with and without its MoE model's experts sharded
 * over the ranks, is a candidate of its own; what the base config gives for another kind of fleet is cleared; what vLLM
 * cannot run is left out with vLLM's reason; and the recommended deployment's commands are vLLM's data-parallel ones.
 */
class DataParallelPlanTest {
    private static final String MOE = "Qwen/Qwen3-30B-A3B-Instruct-2507";

    /** A plan of the MoE model on H100s; {@code extra} goes into the base's deployment, {@code rest} after slo. */
    private static PlanSpec plan(String extra, String rest) throws Exception {
        return PlanFile.bind(CapacitySearchTest.config("""
                name: moe
                base:
                  deployment: {model: %s, hardware: H100, latency_model: roofline%s}
                  engine: {max_model_len: 32768}
                  workload: {scenario: chat, arrival: {process: poisson}}
                target_rate_rps: 4
                slo: [{ttft_p99_ms: 500}]
                %s
                """.formatted(MOE, extra, rest)), Path.of(".").toAbsolutePath());
    }

    @Test
    void eachRankCountIsAFleetWithAndWithoutItsExpertsSharded() throws Exception {
        PlanSpec p = plan("", "space: {gpus: [H100], replicas: [1], dp: {ranks: {min: 2, max: 3}, ep: [false, true]}}");
        assertEquals(List.of("H100-tp1-x1-default", "H100-tp1-dp2-default", "H100-tp1-dp2ep-default", "H100-tp1-dp3-default",
                "H100-tp1-dp3ep-default"), p.candidates().stream().map(Candidate::id).toList());
        // GPUs: ranks x TP 1; at the table's 3.00 USD per H100-hour
        assertEquals(List.of(1, 2, 2, 3, 3), p.candidates().stream().map(Candidate::gpus).toList());
        assertEquals(9.0, p.candidates().get(4).costUsdPerHour(), 1e-9);
        Candidate dp2ep = p.candidates().get(2);
        assertEquals(new Fleet.DataParallel(2, true), dp2ep.fleet());
        assertEquals(2, dp2ep.assignments().get("deployment.dp").asInt());
        assertTrue(dp2ep.assignments().get("deployment.ep").asBoolean());
        assertFalse(p.candidates().get(1).assignments().containsKey("deployment.ep"), "ep is false by default");
        assertNull(dp2ep.family(), "no order between rank counts is assumed: each runs on its own");
        assertEquals(Map.of(), CandidateCheck.invalid(p), "every candidate is a config vLLM runs");
    }

    @Test
    void whatTheBaseGivesForAnotherKindOfFleetIsCleared() throws Exception {
        PlanSpec p = plan(", dp: 2, ep: true, ep_balancedness: 0.8",
                "space: {gpus: [H100], replicas: [2], dp: {ranks: [4], ep: [false, true]}}");
        Map<String, JsonNode> x2 = p.candidates().get(0).assignments();
        assertTrue(x2.get("deployment.dp").isNull() && x2.get("deployment.ep").isNull()
                && x2.get("deployment.ep_balancedness").isNull(), x2.toString());
        assertEquals(2, x2.get("deployment.instances").asInt());
        Map<String, JsonNode> dp4 = p.candidates().get(1).assignments();
        assertEquals(4, dp4.get("deployment.dp").asInt());
        assertTrue(dp4.get("deployment.ep").isNull() && dp4.get("deployment.ep_balancedness").isNull(),
                "the gate's balance only matters where the experts are sharded: " + dp4);
        Map<String, JsonNode> dp4ep = p.candidates().get(2).assignments();
        assertFalse(dp4ep.containsKey("deployment.ep_balancedness"), "the base's balancedness is kept: " + dp4ep);
        assertEquals(Map.of(), CandidateCheck.invalid(p));
    }

    @Test
    void whatVllmCannotRunIsLeftOutWithItsReason() throws Exception {
        // expert parallelism within a TP group is not modelled; vLLM's DP with the SGLang core is not SGLang's DP
        PlanSpec p = plan("", "space: {gpus: [H100], tp: [1, 2], dp: {ranks: [2], ep: true},"
                + " engine: {vllm: {}, sglang: {kind: sglang}}}");
        Map<Integer, String> invalid = CandidateCheck.invalid(p);
        List<String> ids = p.candidates().stream().map(Candidate::id).toList();
        assertEquals(List.of("H100-tp1-dp2ep-vllm", "H100-tp1-dp2ep-sglang", "H100-tp2-dp2ep-vllm", "H100-tp2-dp2ep-sglang"), ids);
        assertFalse(invalid.containsKey(0), invalid.toString());
        assertTrue(invalid.get(1).contains("valid with the SGLang core: 1"), invalid.get(1));
        assertTrue(invalid.get(2).contains("deployment.ep: true with deployment.tp 2"), invalid.get(2));
    }

    @Test
    void oneNodeRunsOneServerBalancingOverItsRanks() throws Exception {
        PlanSpec p = plan("", "space: {gpus: [H100], dp: {ranks: [4], ep: true}}");
        String text = VllmCommand.INSTANCE.text(p, p.candidates().get(0), 4, 100);
        assertTrue(text.contains("# One vLLM data-parallel deployment of 4 ranks, its experts sharded over them, 8 GPUs to"
                + " a node. Its API server spreads the requests over the ranks (vLLM's internal DP load balancer; simulated:"
                + " dp-load-balancer)."), text);
        assertTrue(text.contains("\nCUDA_VISIBLE_DEVICES=0,1,2,3 vllm serve " + MOE + " --port 8000 --data-parallel-size 4"
                + " --enable-expert-parallel --tensor-parallel-size 1 --max-num-seqs "), text);
        assertEquals(1, text.split("vllm serve", -1).length - 1, "one server: " + text);
    }

    @Test
    void acrossNodesTheHeadNodeServesAndTheOthersJoinHeadless() throws Exception {
        // 4 ranks of TP 4: 2 ranks (8 GPUs) per node, ranks 2-3 on node 1 (vLLM's data-parallel deployment guide)
        PlanSpec p = plan("", "space: {gpus: [H100], tp: [4], dp: {ranks: [4]}}");
        String text = VllmCommand.INSTANCE.text(p, p.candidates().get(0), 4, 100);
        assertTrue(text.contains("# node 0, the API server and data-parallel ranks 0-1\nCUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7"
                + " vllm serve " + MOE + " --port 8000 --data-parallel-size 4 --data-parallel-size-local 2"
                + " --data-parallel-address node0 --data-parallel-rpc-port 13345 --tensor-parallel-size 4 "), text);
        assertTrue(text.contains("# node 1, data-parallel ranks 2-3\nCUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 vllm serve " + MOE
                + " --headless --data-parallel-size 4 --data-parallel-size-local 2 --data-parallel-start-rank 2"
                + " --data-parallel-address node0 --data-parallel-rpc-port 13345 --tensor-parallel-size 4 "), text);
        assertFalse(text.contains("--enable-expert-parallel"), text);
    }

    @Test
    void anotherRouterBalancesAServerPerRank() throws Exception {
        // a routing policy in the base config: vLLM's external DP load balancing, a server and port per rank
        PlanSpec p = PlanFile.bind(CapacitySearchTest.config("""
                name: moe
                base:
                  deployment: {model: %s, hardware: H100, latency_model: roofline}
                  engine: {max_model_len: 32768}
                  policies: {routing: least-loaded}
                  workload: {scenario: chat, arrival: {process: poisson}}
                target_rate_rps: 4
                slo: [{ttft_p99_ms: 500}]
                space: {gpus: [H100], dp: {ranks: [2], ep: true}}
                """.formatted(MOE)), Path.of(".").toAbsolutePath());
        String text = VllmCommand.INSTANCE.text(p, p.candidates().get(0), 4, 100);
        assertTrue(text.contains("A router in front of a server per rank spreads the requests (vLLM's external DP load"
                + " balancing; simulated: least-loaded)."), text);
        assertTrue(text.contains("CUDA_VISIBLE_DEVICES=0 vllm serve " + MOE + " --port 8000 --data-parallel-size 2"
                + " --data-parallel-rank 0 --enable-expert-parallel --tensor-parallel-size 1 "), text);
        assertTrue(text.contains("CUDA_VISIBLE_DEVICES=1 vllm serve " + MOE + " --port 8001 --data-parallel-size 2"
                + " --data-parallel-rank 1 --enable-expert-parallel"), text);
    }
}
