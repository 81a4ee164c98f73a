package io.servesim.workload.agentic;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.servesim.config.StrictJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Built-in agentic workflows, selected with {@code agentic: {workflow: <name>}} (steps omitted);
 * {@code loop} or {@code tools} given next to the name replace the built-in's block as a whole.
 * The four shapes are the agentic patterns of the BLIS "Agentic Workload Generation"
 * specification (inference-sim/inference-sim, proposed 2026-02-26), each from its original source:
 * <ul>
 *   <li>{@code react}: ReAct (Yao et al., "ReAct: Synergizing Reasoning and Acting in Language
 *       Models", ICLR 2023, arXiv:2210.03629): reason -> act (tool) -> observe, repeated 1 to 5
 *       times, then a final answer; the observation prompt accumulates the trajectory.</li>
 *   <li>{@code tree-of-thought}: Tree of Thoughts (Yao et al., NeurIPS 2023, arXiv:2305.10601)
 *       breadth-limited search, with the MCTS-style verify/refine tail of the BLIS {@code mcts-code}
 *       example: decompose, 4 candidate thoughts, 4 expansions of each (a 4-wide, 3-level tree:
 *       1 + 4 + 16 = 21 LLM calls), a code_exec verification over all leaves, then one refinement
 *       (22 LLM calls per session).</li>
 *   <li>{@code fork-join-research}: parallel function calling as in LLMCompiler (Kim et al.,
 *       ICML 2024, arXiv:2312.04511) and the BLIS fork-join example: plan, three tools in
 *       parallel (web search, database query, document retrieval), synthesize over all three.</li>
 *   <li>{@code tool-chain}: a multi-step chain whose tools differ by orders of magnitude in latency
 *       (HTTP fetch ~20 ms, SQL query ~200 ms, sandboxed code run ~2 s), each result feeding the
 *       next LLM call.</li>
 * </ul>
 * Token and latency figures are the BLIS examples' where they exist, otherwise round values of the
 * same scale; they are starting points, not measurements.
 */
public final class Workflows {
    private static final ObjectMapper YAML = StrictJson.yaml();
    private static final Map<String, String> WORKFLOWS = new LinkedHashMap<>();

    static {
        WORKFLOWS.put("react", """
                # ReAct: reason -> act -> observe, 1 to 5 times, then answer.
                loop: {over: [reason, act, observe], max_iterations: 5, iterations: {type: uniform, params: {min: 1, max: 5}}}
                steps:
                  - {id: reason, type: llm_call,
                     input_distribution: {type: gaussian, params: {mean: 256, std_dev: 50, min: 32, max: 1024}},
                     output_distribution: {type: exponential, params: {mean: 128, max: 1024}}}
                  - {id: act, type: tool_call, tool: web_search, depends_on: [reason]}
                  - {id: observe, type: llm_call, depends_on: [act], context_growth: accumulate,
                     input_distribution: {type: gaussian, params: {mean: 200, std_dev: 50, min: 32, max: 2048}},
                     output_distribution: {type: exponential, params: {mean: 64, max: 512}}}
                  - {id: final-answer, type: llm_call, depends_on: [observe],
                     input_distribution: {type: gaussian, params: {mean: 512, std_dev: 100, min: 64, max: 2048}},
                     output_distribution: {type: exponential, params: {mean: 256, max: 2048}}}
                tools:
                  web_search:
                    latency: {type: exponential, params: {mean: 50000}}
                    output_tokens: {type: gaussian, params: {mean: 200, std_dev: 50, min: 10, max: 1000}}
                """);
        WORKFLOWS.put("tree-of-thought", """
                # Tree of Thoughts / MCTS: 1 + 4 + 16 LLM calls in a 4-wide, 3-level tree, verify all leaves, refine.
                steps:
                  - {id: decompose, type: llm_call,
                     input_distribution: {type: gaussian, params: {mean: 500, std_dev: 100, min: 64, max: 2048}},
                     output_distribution: {type: exponential, params: {mean: 200, max: 1024}}}
                  - {id: generate, type: llm_call, depends_on: [decompose], fan_out: 4,
                     input_distribution: {type: gaussian, params: {mean: 300, std_dev: 80, min: 32, max: 1024}},
                     output_distribution: {type: exponential, params: {mean: 256, max: 2048}}}
                  - {id: evaluate, type: llm_call, depends_on: [generate], fan_out: 4,
                     input_distribution: {type: gaussian, params: {mean: 400, std_dev: 80, min: 64, max: 2048}},
                     output_distribution: {type: exponential, params: {mean: 64, max: 512}}}
                  - {id: verify, type: tool_call, tool: code_exec, depends_on: [evaluate]}
                  - {id: refine, type: llm_call, depends_on: [verify],
                     input_distribution: {type: gaussian, params: {mean: 1024, std_dev: 150, min: 128, max: 4096}},
                     output_distribution: {type: exponential, params: {mean: 256, max: 2048}}}
                tools:
                  code_exec:
                    latency: {type: gaussian, params: {mean: 100000, std_dev: 20000, min: 10000, max: 500000}}
                    output_tokens: {type: constant, params: {value: 150}}
                """);
        WORKFLOWS.put("fork-join-research", """
                # Plan, three tools in parallel, synthesize.
                steps:
                  - {id: plan, type: llm_call,
                     input_distribution: {type: gaussian, params: {mean: 300, std_dev: 50, min: 32, max: 1024}},
                     output_distribution: {type: exponential, params: {mean: 100, max: 1024}}}
                  - {id: search-web, type: tool_call, tool: web_search, depends_on: [plan]}
                  - {id: query-db, type: tool_call, tool: db_query, depends_on: [plan]}
                  - {id: fetch-docs, type: tool_call, tool: doc_retrieval, depends_on: [plan]}
                  - {id: synthesize, type: llm_call, depends_on: [search-web, query-db, fetch-docs],
                     input_distribution: {type: gaussian, params: {mean: 600, std_dev: 100, min: 64, max: 2048}},
                     output_distribution: {type: exponential, params: {mean: 512, max: 2048}}}
                tools:
                  web_search:
                    latency: {type: exponential, params: {mean: 80000}}
                    output_tokens: {type: gaussian, params: {mean: 300, std_dev: 80, min: 20, max: 1000}}
                  db_query:
                    latency: {type: gaussian, params: {mean: 20000, std_dev: 5000, min: 1000, max: 100000}}
                    output_tokens: {type: constant, params: {value: 100}}
                  doc_retrieval:
                    latency: {type: exponential, params: {mean: 30000}}
                    output_tokens: {type: gaussian, params: {mean: 500, std_dev: 100, min: 50, max: 2000}}
                """);
        WORKFLOWS.put("tool-chain", """
                # A chain of LLM calls, each fed by a tool ~10x slower than the previous one.
                steps:
                  - {id: plan, type: llm_call,
                     input_distribution: {type: gaussian, params: {mean: 300, std_dev: 50, min: 32, max: 1024}},
                     output_distribution: {type: exponential, params: {mean: 80, max: 512}}}
                  - {id: fetch, type: tool_call, tool: http_fetch, depends_on: [plan]}
                  - {id: parse, type: llm_call, depends_on: [fetch],
                     input_distribution: {type: gaussian, params: {mean: 100, std_dev: 20, min: 16, max: 512}},
                     output_distribution: {type: exponential, params: {mean: 80, max: 512}}}
                  - {id: query, type: tool_call, tool: sql_query, depends_on: [parse]}
                  - {id: analyze, type: llm_call, depends_on: [query],
                     input_distribution: {type: gaussian, params: {mean: 100, std_dev: 20, min: 16, max: 512}},
                     output_distribution: {type: exponential, params: {mean: 120, max: 1024}}}
                  - {id: run, type: tool_call, tool: code_exec, depends_on: [analyze]}
                  - {id: report, type: llm_call, depends_on: [run],
                     input_distribution: {type: gaussian, params: {mean: 200, std_dev: 40, min: 16, max: 1024}},
                     output_distribution: {type: exponential, params: {mean: 300, max: 2048}}}
                tools:
                  http_fetch:
                    latency: {type: exponential, params: {mean: 20000}}
                    output_tokens: {type: gaussian, params: {mean: 800, std_dev: 200, min: 50, max: 4000}}
                  sql_query:
                    latency: {type: lognormal, params: {mean: 200000, sigma: 0.5}}
                    output_tokens: {type: gaussian, params: {mean: 300, std_dev: 100, min: 10, max: 2000}}
                  code_exec:
                    latency: {type: lognormal, params: {mean: 2000000, sigma: 0.4}}
                    output_tokens: {type: gaussian, params: {mean: 150, std_dev: 50, min: 10, max: 1000}}
                """);
    }

    private Workflows() {
    }

    /** Built-in workflow names, in documentation order. */
    public static List<String> names() {
        return List.copyOf(WORKFLOWS.keySet());
    }

    /** The commented YAML of built-in {@code name}. */
    public static String yaml(String name) {
        String y = WORKFLOWS.get(name);
        if (y == null) {
            throw new IllegalArgumentException("unknown workflow '" + name + "'; valid: " + String.join(", ", names()));
        }
        return y;
    }

    /** Built-in {@code name} with the keys of {@code overrides} replacing its own (a new tree). */
    static ObjectNode withOverrides(String name, ObjectNode overrides) {
        try {
            ObjectNode base = (ObjectNode) YAML.readTree(yaml(name));
            base.setAll(overrides.deepCopy());
            return base;
        } catch (IOException e) {
            throw new UncheckedIOException("built-in workflow " + name + " is not valid YAML", e);
        }
    }
}
