package io.servesim.plan;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the search's pruning relies on, checked on the kernel: on a fixed trace (the same seeded requests, their
 * arrival times scaled by the rate), one more aggregated replica of the same GPU, TP and engine never sustains a lower
 * rate of the capacity grid by more than one step of it ({@link FamilyScreen} and {@link CheapestCheck} bisect replica
 * counts because of it). Every GPU x TP x routing x replica count of the grid below is checked, 60 capacities. On a
 * short trace a capacity is how well a burst of requests spreads over the replicas, and a p99 is a few requests: on
 * 200 an L40S at TP 1 behind least-loaded routing sustained 17.0 req/s with 4 replicas and 11.5 with 5, its TTFT p99
 * (the second-worst request) sitting at the 500 ms SLO from 11 to 18 req/s; on 400 it holds. It does not hold
 * between P/D pool ratios, which is why no P/D fleet is pruned against another: with long prompts, 2 prefill + 1
 * decode replicas sustain more than 1 prefill + 3 decode, a fleet of 4 instances.
 */
class ReplicaMonotonicityTest {
    private static final List<Slo> SLOS = List.of(new Slo("ttft_p99_ms", 500, true), new Slo("tpot_p90_ms", 50, true));
    /** Requests of the trace. */
    private static final int REQUESTS = 400;
    /** The capacity grid's step, req/s. */
    private static final double STEP_RPS = 0.5;

    /** The capacity of {@code deployment} (200 chat requests, seed 11) on the grid 0.5 j, searched from 4 req/s. */
    private static double capacity(String deployment, String routing) throws Exception {
        ObjectNode tree = CapacitySearchTest.config("seed: 11\n"
                + "deployment: " + deployment + "\n"
                + "engine: {max_num_seqs: 128, max_num_batched_tokens: 2048, block_size: 16}\n"
                + "policies: {routing: " + routing + "}\n"
                + "workload: {scenario: chat, arrival: {process: poisson}, aggregate_rate: 4, num_requests: " + REQUESTS + "}\n");
        PlanSpec plan = CapacitySpec.of("m", tree, Path.of("."), SLOS, STEP_RPS, 256.0, null);
        return Drive.search(new PlanSearch(plan, Map.of()), p -> Drive.kernel(plan, p)).result().candidates().get(0)
                .capacityRps();
    }

    @Test
    void oneMoreReplicaNeverSustainsLessByMoreThanAStep() throws Exception {
        for (String gpu : List.of("H100", "A100-80GB", "L40S")) {
            for (int tp = 1; tp <= 2; tp++) {
                for (String routing : List.of("least-loaded", "round-robin")) {
                    String deployment = "{model: meta-llama/llama-3.1-8b-instruct, hardware: " + gpu + ", tp: " + tp
                            + ", latency_model: roofline, instances: ";
                    double fewer = capacity(deployment + 1 + "}", routing);
                    for (int replicas = 2; replicas <= 5; replicas++) {
                        double more = capacity(deployment + replicas + "}", routing);
                        assertTrue(more >= fewer - STEP_RPS, gpu + " TP " + tp + " " + routing + ": " + (replicas - 1)
                                + " replicas sustain " + fewer + " req/s, " + replicas + " only " + more);
                        fewer = more;
                    }
                }
            }
        }
    }

    @Test
    void betweenPdRatiosMoreInstancesCanSustainLess() throws Exception {
        // prompts of ~6,000 tokens and ~100 output tokens: the prefill pool is the bottleneck, so 1 prefill replica
        // caps 1P3D near 1P1D's rate while 2P1D, one instance fewer, sustains about twice as much
        String pd = "{model: meta-llama/llama-3.1-8b-instruct, hardware: H100, latency_model: roofline, architecture: pd,"
                + " pd: {prefill: {replicas: %d}, decode: {replicas: %d}, transfer: {latency: 1ms, bandwidth: 50GB/s}}}";
        String longPrompts = "\nworkload: {aggregate_rate: 4, num_requests: 300,"
                + " input_distribution: {type: gaussian, params: {mean: 6000, std_dev: 1500, min: 2000, max: 10000}},"
                + " output_distribution: {type: gaussian, params: {mean: 100, std_dev: 30, min: 16, max: 256}}}";
        double twoOne = pdCapacity(String.format(pd, 2, 1) + longPrompts);
        double oneThree = pdCapacity(String.format(pd, 1, 3) + longPrompts);
        assertTrue(twoOne > oneThree * 1.5, "2P1D " + twoOne + " req/s, 1P3D " + oneThree);
    }

    private static double pdCapacity(String deploymentAndWorkload) throws Exception {
        ObjectNode tree = CapacitySearchTest.config("seed: 3\ndeployment: " + deploymentAndWorkload
                + "\nengine: {max_num_seqs: 256, max_num_batched_tokens: 2048, block_size: 16}\npolicies: {routing: least-loaded}\n");
        List<Slo> slos = List.of(new Slo("ttft_p99_ms", 2000, true), new Slo("tpot_p90_ms", 50, true));
        PlanSpec plan = CapacitySpec.of("pd", tree, Path.of("."), slos, 0.25, 64.0, null);
        return Drive.search(new PlanSearch(plan, Map.of()), p -> Drive.kernel(plan, p)).result().candidates().get(0)
                .capacityRps();
    }
}
