package io.servesim.evolve;

/** The small searches the tests run: 2 x H100 Llama-3.1-8B (roofline), weighted-scoring's weights, 60-request workloads. */
final class TestSearches {
    private TestSearches() {
    }

    /** A search named {@code name} of {@code generations} generations of 3 over two weights, seed {@code seed}. */
    static String small(String name, int generations, long seed) {
        return "name: " + name + """

                base:
                  deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: H100, instances: 2, latency_model: roofline}
                  engine: {max_num_seqs: 64, max_num_batched_tokens: 2048, block_size: 16, enable_prefix_caching: true}
                  policies: {routing: {name: round-robin}}
                fitness_weights: "ttft_p99_ms:0.5,e2e_p99_ms:0.5"
                policies: {routing: {name: weighted-scoring, params: {kv_utilization: 0}}}
                search:
                  routing.cache_affinity: {min: 0, max: 4, start: 1, sigma: 1}
                  routing.load: {min: 0, max: 4, start: 1, sigma: 1}
                train:
                  workloads: {prefix: {scenario: prefix-heavy, num_requests: 60, aggregate_rate: 20}}
                  seeds: [1]
                held_out:
                  workloads: {chat: {scenario: chat, num_requests: 60, aggregate_rate: 20}}
                  seeds: [2]
                baselines: {round-robin: {routing: {name: round-robin}}, least-loaded: {routing: {name: least-loaded}}}
                """ + "cmaes: {population: 3, generations: " + generations + ", seed: " + seed + "}\n";
    }
}
