package io.servesim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * BLIS's workload-level keys {@code category} and {@code horizon} (WorkloadSpec): the AgenticSpec example of BLIS's
 * agentic workload proposal loads as written.
 */
class WorkloadCategoryTest {
    /** The proposal's example, verbatim. */
    private static final String AGENTIC_EXAMPLE = """
            version: "2"
            seed: 42
            category: "agentic"
            aggregate_rate: 10.0
            horizon: 60000000

            clients:
              - id: "react-agent"
                tenant_id: "team-search"
                slo_class: "standard"
                rate_fraction: 0.5
                arrival:
                  process: poisson              # Layer 1: session inter-arrival
                agentic:
                  workflow: "react-search"
                  loop:
                    over: ["reason", "act", "observe"]
                    max_iterations: 5
                  steps:
                    - id: "reason"
                      type: llm_call
                      input_distribution: {type: gaussian, params: {mean: 256, std_dev: 50, min: 32, max: 1024}}
                      output_distribution: {type: exponential, params: {mean: 128}}
                    - id: "act"
                      type: tool_call
                      tool: "web_search"
                      depends_on: ["reason"]
                    - id: "observe"
                      type: llm_call
                      depends_on: ["act"]
                      context_growth: accumulate
                      input_distribution: {type: gaussian, params: {mean: 200, std_dev: 50, min: 32, max: 2048}}
                      output_distribution: {type: exponential, params: {mean: 64}}
                    - id: "final-answer"
                      type: llm_call
                      depends_on: ["observe"]
                      input_distribution: {type: gaussian, params: {mean: 512, std_dev: 100, min: 64, max: 2048}}
                      output_distribution: {type: exponential, params: {mean: 256}}
                  tools:
                    web_search:
                      latency: {type: exponential, params: {mean: 50000}}
                      output_tokens: {type: gaussian, params: {mean: 200, std_dev: 50, min: 10, max: 1000}}
            """;

    @Test
    void theAgenticProposalsExampleLoadsAsWritten() {
        GeneratorSpec g = Yaml.generator(AGENTIC_EXAMPLE);
        assertEquals(60_000_000, g.horizonUs(), "horizon is BLIS's name of horizon_us");
        assertEquals(10.0, g.aggregateRateRps());
        assertNotNull(g.clients().get(0).agentic());
        // its one client's rate_fraction 0.5 is its whole share, with the usual note
        assertEquals(List.of("workload.clients: rate_fraction values sum to 0.5, not 1; normalised (each divided by 0.5)"),
                g.warnings());
    }

    @Test
    void theCategoryIsCheckedAgainstTheClients() {
        assertEquals(List.of("workload.category: 'language' but a client has an agentic block; write category: agentic, or"
                + " leave category out"), Yaml.problems(AGENTIC_EXAMPLE.replace("category: \"agentic\"", "category: language")));
        String plain = "category: agentic\naggregate_rate: 1\nnum_requests: 3\n"
                + "input_distribution: {type: constant, params: {value: 8}}\noutput_distribution: {type: constant, params: {value: 2}}\n";
        assertEquals(List.of("workload.category: 'agentic' but no client has an agentic block; add one, or write category:"
                + " language"), Yaml.problems(plain));
        assertEquals(3, Yaml.generator(plain.replace("agentic", "language")).numRequests());
        assertEquals(List.of("workload.category: unknown value 'vision'; valid: language, multimodal, reasoning, agentic"),
                Yaml.problems(plain.replace("agentic", "vision")));
        // reasoning and multimodal are categories too, held by a client with that block
        assertEquals(List.of("workload.category: 'reasoning' but no client has a reasoning block; add one, or write"
                + " category: language"), Yaml.problems(plain.replace("agentic", "reasoning")));
        String reasoner = plain.replace("agentic", "reasoning")
                + "reasoning: {reason_ratio_distribution: {type: constant, params: {value: 50}}}\n";
        assertEquals(3, Yaml.generator(reasoner).numRequests());
        assertEquals(List.of("workload.category: 'language' but a client has a reasoning block; write category: reasoning,"
                + " or leave category out"), Yaml.problems(reasoner.replace("category: reasoning", "category: language")));
        assertEquals(List.of("workload.horizon: is an alias of horizon_us, which is also set (5 and 60000000); set only one of"
                + " them"),
                Yaml.problems(AGENTIC_EXAMPLE + "horizon_us: 5\n"));
    }
}
