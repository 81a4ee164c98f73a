package io.servesim.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.servesim.run.PolicyKind;
import io.servesim.run.SimConfig;
import io.servesim.run.SimConfigLoader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimConfigLoaderTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static SimConfig bind(String yaml) throws Exception {
        return SimConfigLoader.bind(YAML.readTree(yaml), Path.of("."));
    }

    private static List<String> problems(String yaml) {
        ConfigException e = assertThrows(ConfigException.class, () -> bind(yaml));
        return e.problems().stream().map(ConfigException.Problem::toString).toList();
    }

    @Test
    void bindsDefaultsAndAliases() throws Exception {
        SimConfig c = bind("""
                deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100}
                engine: {max_num_running_reqs: 64, max_num_scheduled_tokens: 512}
                """);
        assertEquals(64, c.engine().maxNumSeqs());
        assertEquals(512, c.engine().maxNumBatchedTokens());
        assertEquals(16, c.engine().blockSizeTokens());
        assertEquals(-1, c.engine().maxModelLen());
        assertEquals("fcfs", c.policies().spec(PolicyKind.SCHEDULER).name());
        assertEquals("round-robin", c.policies().spec(PolicyKind.ROUTING).name());
        assertEquals(1, c.cluster().instances());
        assertEquals("auto", c.latency().kind());
        assertEquals(42, c.seed());
    }

    @Test
    void reportsEveryProblemWithItsPath() {
        List<String> p = problems("""
                deployment: {model: x, hardware: H100, tp: 0}
                engine: {max_num_seqs: -1, block_size: 12, bogus: 1}
                policies: {scheduler: lifo, priority: {name: slo-based, params: {age_wieght: 1}}}
                workload: {aggregate_rate: 5, num_requests: 9, arrival: {process: sometimes},
                           input_distribution: {type: gaussian, params: {mean: 10, std_dev: 1, min: 9, max: 3}},
                           output_distribution: {type: constant, params: {value: 1}}}
                extra: true
                """);
        assertTrue(p.stream().anyMatch(m -> m.startsWith("deployment.tp: must be in [1, 64] GPUs, got 0 (")), p.toString());
        assertTrue(p.contains("engine.max_num_seqs: must be in [1, 1048576] requests, got -1"), p.toString());
        assertTrue(p.contains("engine.block_size: must be one of vLLM's block sizes [1, 8, 16, 32, 64, 128], got 12"), p.toString());
        assertTrue(p.stream().anyMatch(s -> s.startsWith("engine.bogus: unknown key; valid keys here: ")), p.toString());
        assertTrue(p.contains("policies.scheduler.name: unknown scheduler policy 'lifo'; valid: fcfs, priority-fcfs, sjf, reverse-priority, code"), p.toString());
        assertTrue(p.contains("policies.priority.params.age_wieght: unknown parameter for 'slo-based'; valid: age_weight, class_scores, default_score"), p.toString());
        assertTrue(p.contains("workload.arrival.process: unknown value 'sometimes'; valid: poisson, constant, gamma, weibull, bursty, diurnal, distribution, spread"), p.toString());
        assertTrue(p.contains("workload.input_distribution.params.min: min 9 > max 3"), p.toString());
        assertTrue(p.stream().anyMatch(s -> s.startsWith("extra: unknown key")), p.toString());
    }

    /**
     * Every bad param of every policy is reported in one pass, each at its path, not the first of each policy (the
     * unknown key first, then after fixing it the next): weighted-scoring's weights are numbers in [0, 1000], so
     * {@code x} is not a number and 2000 is out of range; {@code lod} is no weighted-scoring param; token-bucket's
     * capacity must be > 0 and refill_per_s a number.
     */
    @Test
    void reportsEveryBadPolicyParamAtOnce() {
        List<String> p = problems("""
                deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, instances: 2}
                policies:
                  routing: {name: weighted-scoring, params: {queue_depth: x, kv_utilization: 2000, lod: 1}}
                  admission: {name: token-bucket, params: {capacity: -1, refill_per_s: y}}
                """);
        assertTrue(p.contains("policies.routing.params.queue_depth: must be a number, got 'x'"), p.toString());
        assertTrue(p.stream().anyMatch(m -> m.startsWith("policies.routing.params.kv_utilization: must be in [0, 1000]"
                + ", got 2000")), p.toString());
        assertTrue(p.contains("policies.routing.params.lod: unknown parameter for 'weighted-scoring'; valid:"
                + " cache_affinity, kv_utilization, load, queue_depth"), p.toString());
        assertTrue(p.stream().anyMatch(m -> m.startsWith("policies.admission.params.capacity: must be in (0, 1000000000]"
                + " requests or prompt tokens (cost), got -1")), p.toString());
        assertTrue(p.contains("policies.admission.params.refill_per_s: must be a number, got 'y'"), p.toString());
        assertEquals(5, p.size(), p.toString());
    }

    @Test
    void modelAndHardwareRequiredUnlessCoefficientsGiven() throws Exception {
        assertTrue(problems("{}").contains("deployment.model: required (or give deployment.coefficients for a blackbox model)"));
        SimConfig c = bind("deployment: {coefficients: {alpha: [1, 2, 3], beta: [4, 5, 6]}}");
        assertEquals(6, c.latency().coefficients().b2());
        assertTrue(problems("deployment: {coefficients: {alpha: [1, 2], beta: [4, 5, 6]}}")
                .contains("deployment.coefficients.alpha: must be a list of 3 numbers [a0, a1, a2] in microseconds"));
    }

    @Test
    void overridesSetNestedPathsAndTypedValues() throws Exception {
        ObjectNode tree = (ObjectNode) YAML.readTree("deployment: {model: m, hardware: H100}\nlist: [{a: 1}]");
        Overrides.apply(tree, "engine.max_num_seqs=128");
        Overrides.apply(tree, "policies.priority={name: slo-based, params: {age_weight: 2}}");
        Overrides.apply(tree, "list[0].a=5");
        assertEquals(128, tree.at("/engine/max_num_seqs").asInt());
        assertEquals(5, tree.at("/list/0/a").asInt());
        ConfigException e = assertThrows(ConfigException.class, () -> Overrides.apply(tree, "list[3].a=1"));
        assertEquals("list[3]: no such list element (override list[3].a)", e.getMessage());
        assertThrows(ConfigException.class, () -> Overrides.apply(tree, "no-equals-sign"));
    }

    /**
     * An override to null unsets the key: the file's vLLM-only block_size can be taken out when the command line
     * switches the engine to the SGLang core, which refuses it.
     */
    @Test
    void anOverrideToNullUnsetsTheKey() throws Exception {
        ObjectNode tree = (ObjectNode) YAML.readTree("""
                deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100}
                engine: {block_size: 16}
                workload: {scenario: chat, num_requests: 10}
                """);
        ObjectNode sglang = tree.deepCopy();
        Overrides.apply(sglang, "engine.kind=sglang");
        ConfigException e = assertThrows(ConfigException.class, () -> SimConfigLoader.bind(sglang, Path.of(".")));
        assertTrue(e.getMessage().contains("engine.block_size: is a setting of the vllm engine core"), e.getMessage());
        Overrides.apply(tree, "engine.block_size=null");
        Overrides.apply(tree, "engine.kind=sglang");
        assertTrue(tree.at("/engine/block_size").isMissingNode());
        assertEquals("sglang", tree.at("/engine/kind").asText());
        SimConfigLoader.bind(tree, Path.of("."));
    }

    @Test
    void bindsClusterSloAndFitness() throws Exception {
        SimConfig c = bind("""
                deployment: {model: m, hardware: H100, instances: 4}
                cluster:
                  routing_latency_us: 500
                  observability: {default: {mode: periodic, interval_us: 100000}, queue_depth: immediate,
                                  prefix_cache: {mode: on-demand, latency_us: 200}}
                policies: {routing: {name: weighted-scoring, params: {cache_affinity: 2}}, admission: reject-all}
                slo: {realtime: {ttft_ms: 150}}
                fitness_weights: "throughput_rps:0.5,ttft_p99_ms:0.5"
                """);
        assertEquals(4, c.cluster().instances());
        assertEquals(500, c.cluster().routingLatencyUs());
        var obs = c.cluster().observability();
        assertEquals(io.servesim.cluster.Observability.Kind.IMMEDIATE, obs.mode(io.servesim.cluster.Signal.QUEUE_DEPTH).kind());
        assertEquals(100000, obs.mode(io.servesim.cluster.Signal.KV_UTILIZATION).intervalUs());
        assertEquals(200, obs.mode(io.servesim.cluster.Signal.PREFIX_CACHE).latencyUs());
        assertEquals(150.0, c.slo().of("realtime").ttftMs());
        assertEquals(true, Double.isNaN(c.slo().of("realtime").tpotMs()));
        assertEquals(0.5, c.fitness().weights().get("ttft_p99_ms"));
        assertEquals("reject-all", c.policies().spec(PolicyKind.ADMISSION).name());
    }

    @Test
    void clusterProblemsNameTheirPaths() {
        List<String> p = problems("""
                deployment: {model: m, hardware: H100, instances: 0}
                cluster: {observability: {kv_utilization: periodic, queue_depth: {mode: sometimes}}}
                policies: {routing: nearest, admission: {name: token-bucket, params: {capacity: 5}}}
                fitness_weights: "speed:1"
                """);
        assertTrue(p.stream().anyMatch(m -> m.startsWith("deployment.instances: must be in [1, 100000] replicas, got 0 (")),
                p.toString());
        assertTrue(p.contains("cluster.observability.kv_utilization: periodic needs an interval: {mode: periodic, interval_us: N}"), p.toString());
        assertTrue(p.contains("cluster.observability.queue_depth.mode: unknown value 'sometimes'; valid: immediate, periodic, on-demand"), p.toString());
        assertTrue(p.contains("policies.routing.name: unknown routing policy 'nearest'; valid: round-robin, least-loaded, "
                + "weighted-scoring, prefix-affinity, kv-router, always-busiest, dp-load-balancer, code"), p.toString());
        assertTrue(p.contains("policies.admission.params.refill_per_s: required: number in [0, 1000000000] per second"), p.toString());
        assertTrue(p.stream().anyMatch(s -> s.startsWith("fitness_weights: unknown fitness metric 'speed'; valid: rejection_rate, ttft_mean_ms")), p.toString());
    }

    /** {@code autoscaling.policy} is the autoscale policy written beside its settings: the same spec as policies.autoscale. */
    @Test
    void theAutoscalePolicyMayBeWrittenUnderAutoscaling() throws Exception {
        String base = "deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, instances: 2}\n";
        String policy = "{name: threshold, params: {signal: in_flight, scale_up: 8, scale_down: 1}}";
        SimConfig there = bind(base + "autoscaling: {enabled: true, max: 4, policy: " + policy + "}\n");
        SimConfig here = bind(base + "autoscaling: {enabled: true, max: 4}\npolicies: {autoscale: " + policy + "}\n");
        var a = there.policies().spec(PolicyKind.AUTOSCALE);
        var b = here.policies().spec(PolicyKind.AUTOSCALE);
        assertEquals(b.name(), a.name());
        assertEquals(b.params(), a.params());
        assertEquals("autoscaling.policy", a.path());
        assertEquals("policies.autoscale", b.path());
        assertEquals(there.autoscaling(), here.autoscaling());
    }
}
