package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.config.ConfigException;
import io.servesim.config.StrictJson;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * {@code deployment.dp} and {@code deployment.ep} in a run config: the ranks become the instances behind vLLM's DP load
 * balancer, expert parallelism groups them in lockstep, and what is not modelled is refused at its path.
 */
class DataParallelConfigTest {
    private static final String WORKLOAD = """
            workload: {aggregate_rate: 20, num_requests: 40,
                       input_distribution: {type: constant, params: {value: 200}},
                       output_distribution: {type: constant, params: {value: 20}}}
            """;
    private static final String MOE = "model: Qwen/Qwen3-30B-A3B-Instruct-2507, hardware: RTXPRO6000";

    private static RunPlan prepare(String yaml) throws Exception {
        return RunPlan.prepare(SimConfigLoader.bind(StrictJson.yaml().readTree(yaml + "\n" + WORKLOAD), Path.of("."), Set.of()));
    }

    private static ConfigException.Problem refused(String yaml) {
        ConfigException e = assertThrows(ConfigException.class, () -> prepare(yaml));
        return e.problems().get(0);
    }

    @Test
    void expertParallelRanksStepInLockstepBehindTheBalancer() throws Exception {
        RunPlan plan = prepare("deployment: {" + MOE + ", latency_model: profiled, dp: 2, ep: true}");
        SimSetup s = plan.setup();
        assertEquals(2, s.cluster().instances());
        assertEquals("dp-load-balancer", s.policies().spec(PolicyKind.ROUTING).name());
        assertNotNull(s.expertParallel());
        assertEquals(2, s.expertParallel().ranks());
        assertTrue(!s.engine().macroSteps(), "macro-steps are off in a lockstep group");
        List<io.servesim.metrics.RequestRecord> records = new java.util.ArrayList<>();
        plan.run(records::add);
        assertEquals(40, records.size());
        assertTrue(records.stream().allMatch(x -> io.servesim.metrics.RequestRecord.COMPLETED.equals(x.status())));
        assertTrue(records.stream().anyMatch(x -> x.instanceId() == 1), "both ranks serve");
    }

    @Test
    void denseRanksAreIndependentAndAGivenRouterIsKept() throws Exception {
        RunPlan plan = prepare("deployment: {model: meta-llama/Llama-3.1-8B, hardware: H100, latency_model: roofline, dp: 3}\n"
                + "policies: {routing: {name: least-loaded}}");
        assertEquals(3, plan.setup().cluster().instances());
        assertEquals("least-loaded", plan.setup().policies().spec(PolicyKind.ROUTING).name());
        assertNull(plan.setup().expertParallel());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "model: meta-llama/Llama-3.1-8B, hardware: H100, latency_model: roofline, dp: 2, ep: true | deployment.ep"
            + " | has no MoE layers",
        "MOE, latency_model: profiled, ep: true | deployment.ep | needs deployment.dp above 1",
        "MOE, latency_model: roofline, dp: 2, tp: 2, ep: true | deployment.ep | within a tensor-parallel group",
        "MOE, latency_model: profiled, dp: 2, instances: 2 | deployment.instances | valid: 1",
        "MOE, latency_model: profiled, dp: 0 | deployment.dp | ",
        "MOE, latency_model: profiled, dp: 2, ep: 2 | deployment.ep | "})
    void whatIsNotModelledIsRefusedAtItsPath(String deployment, String path, String message) {
        ConfigException.Problem p = refused("deployment: {" + deployment.replace("MOE", MOE) + "}");
        assertEquals(path, p.path(), p.message());
        assertTrue(message == null || p.message().contains(message), p.message());
    }

    @Test
    void aBlackboxModelCannotPriceExpertParallelism() {
        ConfigException.Problem p = refused("deployment: {" + MOE + ", dp: 2, ep: true, latency_model: blackbox,"
                + " coefficients: {alpha: [1, 1, 1], beta: [1, 1, 1]}}\nengine: {total_kv_blocks: 1000, max_model_len: 4096}");
        assertEquals("deployment.latency_model", p.path());
        assertTrue(p.message().contains("valid with deployment.ep: roofline, profiled"), p.message());
    }

    @Test
    void theSglangCoreRunsNoVllmDataParallelDeployment() {
        // SGLang's --dp-size is replicas behind its own controller, its DP attention another engine: refused, not
        // simulated as vLLM's ranks behind vLLM's load balancer
        ConfigException.Problem p = refused("deployment: {" + MOE + ", latency_model: roofline, dp: 2, ep: true}\n"
                + "engine: {kind: sglang}");
        assertEquals("deployment.dp", p.path());
        assertTrue(p.message().contains("deployment.instances: 2") && p.message().contains("valid with the SGLang core: 1"),
                p.message());
    }

    @Test
    void dataParallelismWithAutoscalingIsRefused() {
        ConfigException.Problem p = refused("deployment: {" + MOE + ", latency_model: profiled, dp: 2}\n"
                + "autoscaling: {enabled: true, min: 1, max: 2}");
        assertEquals(List.of("deployment.dp"), List.of(p.path()));
    }
}
