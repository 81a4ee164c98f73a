package io.servesim.workload.agentic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.workload.ClientSpec;
import io.servesim.workload.GeneratorSpec;
import io.servesim.workload.Yaml;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Binding and the validation rules of an {@code agentic} section, each problem with its exact path. */
class AgenticBinderTest {
    private static final String LLM = "input_distribution: {type: constant, params: {value: 10}}, "
            + "output_distribution: {type: constant, params: {value: 5}}";
    private static final String TOOLS = "tools: {search: {latency: {type: constant, params: {value: 100}}, "
            + "output_tokens: {type: constant, params: {value: 7}}}}";

    /** A workload whose second client (clients[1]) has {@code agentic} with the given body lines. */
    private static String workload(String agenticBody) {
        return """
                aggregate_rate: 1
                num_requests: 10
                clients:
                  - {id: plain, input_distribution: {type: constant, params: {value: 10}},
                     output_distribution: {type: constant, params: {value: 5}}}
                  - id: agent
                    agentic:
                """ + agenticBody.indent(6);
    }

    private static List<String> problems(String agenticBody) {
        return Yaml.problems(workload(agenticBody));
    }

    private static void assertProblem(List<String> problems, String expected) {
        assertTrue(problems.contains(expected), () -> "missing\n  " + expected + "\nin\n  " + String.join("\n  ", problems));
    }

    @Test
    void bindsTheIssueExample() {
        GeneratorSpec g = Yaml.generator(workload("""
                workflow: react-search
                loop: {over: [reason, act, observe], max_iterations: 5, iterations: {type: uniform, params: {min: 1, max: 5}}}
                steps:
                  - {id: reason, type: llm_call,
                     input_distribution: {type: gaussian, params: {mean: 256, std_dev: 50, min: 32, max: 1024}},
                     output_distribution: {type: exponential, params: {mean: 128}}}
                  - {id: act, type: tool_call, tool: web_search, depends_on: [reason]}
                  - {id: observe, type: llm_call, depends_on: [act], context_growth: accumulate,
                     input_distribution: {type: gaussian, params: {mean: 200, std_dev: 50, min: 32, max: 2048}},
                     output_distribution: {type: exponential, params: {mean: 64}}}
                  - {id: final-answer, type: llm_call, depends_on: [observe],
                     input_distribution: {type: gaussian, params: {mean: 512, std_dev: 100, min: 64, max: 2048}},
                     output_distribution: {type: exponential, params: {mean: 256}}}
                tools:
                  web_search:
                    latency: {type: exponential, params: {mean: 50000}}
                    output_tokens: {type: gaussian, params: {mean: 200, std_dev: 50, min: 10, max: 1000}}
                """));
        ClientSpec c = g.clients().get(1);
        AgenticSpec a = c.agentic();
        assertNotNull(a);
        assertNull(c.input());
        assertNull(g.clients().get(0).agentic());
        assertEquals("react-search", a.workflow());
        assertEquals(List.of("reason", "act", "observe", "final-answer"), a.steps().stream().map(StepSpec::id).toList());
        assertEquals(5, a.loop().maxIterations());
        assertTrue(a.steps().get(2).accumulate());
        WorkflowGraph graph = a.graph();
        assertEquals(9, graph.llmCalls(4));
    }

    @Test
    void builtInByNameWithReplacedTools() {
        GeneratorSpec g = Yaml.generator(workload("""
                workflow: fork-join-research
                tools:
                  web_search: {latency: {type: constant, params: {value: 1}}, output_tokens: {type: constant, params: {value: 1}}}
                  db_query: {latency: {type: constant, params: {value: 2}}, output_tokens: {type: constant, params: {value: 1}}}
                  doc_retrieval: {latency: {type: constant, params: {value: 3}}, output_tokens: {type: constant, params: {value: 1}}}
                """));
        AgenticSpec a = g.clients().get(1).agentic();
        assertEquals("fork-join-research", a.workflow());
        assertEquals(5, a.steps().size());
        assertEquals("constant", a.tools().get("db_query").latencyUs().type());
        for (String name : Workflows.names()) {
            assertNotNull(Yaml.generator(workload("workflow: " + name)).clients().get(1).agentic(), name);
        }
    }

    @Test
    void unknownWorkflowStepsAndKeys() {
        assertProblem(problems("workflow: reactor"), "workload.clients[1].agentic.workflow: unknown built-in workflow "
                + "'reactor' (give steps to define one); valid: react, tree-of-thought, fork-join-research, tool-chain");
        List<String> p = problems("""
                workflow: w
                retries: 3
                steps:
                  - {id: a, type: llm_call, %s}
                  - {id: b, type: llm_call, depends_on: [a, zz], colour: red, %s}
                """.formatted(LLM, LLM));
        assertProblem(p, "workload.clients[1].agentic.steps[1].depends_on[1]: unknown step 'zz'; valid: a");
        assertProblem(problems("""
                workflow: w
                steps:
                  - {id: a, type: llm_call, %s}
                  - {id: b, type: llm_call, depends_on: [a, a], %s}
                """.formatted(LLM, LLM)), "workload.clients[1].agentic.steps[1].depends_on[1]: step 'a' is listed twice");
        assertTrue(p.stream().anyMatch(s -> s.startsWith("workload.clients[1].agentic.steps[1].colour: unknown key")), p::toString);
        assertTrue(p.stream().anyMatch(s -> s.startsWith("workload.clients[1].agentic.retries: unknown key")), p::toString);
        assertProblem(problems("steps: [{id: a, type: llm_call, %s}]".formatted(LLM)),
                "workload.clients[1].agentic.workflow: required: a name for the workflow (a built-in name or a label)");
        assertProblem(problems("workflow: w\nsteps: [{id: a, type: think, %s}]".formatted(LLM)),
                "workload.clients[1].agentic.steps[0].type: unknown value 'think'; valid: llm_call, tool_call");
    }

    @Test
    void rule1AcyclicIgnoringLoopBackEdges() {
        // {second and third steps' dependencies, the steps named on the cycle}: b and c depend on each other; a
        // self-dependency is a cycle of one step, and the step downstream of it (d depends on c) is not on it
        String[][] cases = {{"b", "[a, c]", "c", "[b]", "b, c"}, {"c", "[a, c]", "d", "[c]", "c"}};
        for (String[] c : cases) {
            assertProblem(problems("""
                    workflow: w
                    steps:
                      - {id: a, type: llm_call, %s}
                      - {id: %s, type: llm_call, depends_on: %s, %s}
                      - {id: %s, type: llm_call, depends_on: %s, %s}
                    """.formatted(LLM, c[0], c[1], LLM, c[2], c[3], LLM)), "workload.clients[1].agentic.steps[1].depends_on:"
                    + " dependency cycle among steps " + c[4] + " (only dependencies between loop.over steps that point"
                    + " back in its order are loop-back edges)");
        }
        // reason depends on observe: a loop-back edge (observe comes later in loop.over), so this binds.
        Yaml.generator(workload("""
                workflow: w
                loop: {over: [reason, observe], max_iterations: 2}
                steps:
                  - {id: reason, type: llm_call, depends_on: [observe], %s}
                  - {id: observe, type: llm_call, depends_on: [reason], %s}
                """.formatted(LLM, LLM)));
    }

    @Test
    void rule2ExactlyOneRootUnlessTheLoopIsTheEntry() {
        assertProblem(problems("""
                workflow: w
                steps:
                  - {id: a, type: llm_call, %s}
                  - {id: b, type: llm_call, %s}
                  - {id: c, type: llm_call, depends_on: [a, b], %s}
                """.formatted(LLM, LLM, LLM)), "workload.clients[1].agentic.steps: exactly one root step (no depends_on) "
                + "is allowed unless every root is in loop.over; roots: a, b");
        Yaml.generator(workload("""
                workflow: w
                loop: {over: [a, b, c], max_iterations: 2}
                steps:
                  - {id: a, type: llm_call, %s}
                  - {id: b, type: llm_call, %s}
                  - {id: c, type: llm_call, depends_on: [a, b], %s}
                """.formatted(LLM, LLM, LLM)));
        assertProblem(problems("workflow: w\nsteps: [{id: t, type: tool_call, tool: search}]\n" + TOOLS),
                "workload.clients[1].agentic.steps[0].type: a root step (no depends_on) must be llm_call: only roots "
                        + "arrive with the session");
    }

    @Test
    void rule3ToolsExist() {
        List<String> p = problems("""
                workflow: w
                steps:
                  - {id: a, type: llm_call, %s}
                  - {id: t, type: tool_call, tool: web, depends_on: [a]}
                  - {id: u, type: tool_call, depends_on: [a]}
                %s
                """.formatted(LLM, TOOLS));
        assertProblem(p, "workload.clients[1].agentic.steps[1].tool: unknown tool 'web'; valid: search");
        assertProblem(p, "workload.clients[1].agentic.steps[2].tool: required for a tool_call step; valid: search");
        // a bad tool and a bad reference in one workflow: both are reported in one pass
        List<String> both = problems("""
                workflow: w
                steps:
                  - {id: a, type: llm_call, %s}
                  - {id: t, type: tool_call, tool: web, depends_on: [zz]}
                %s
                """.formatted(LLM, TOOLS));
        assertProblem(both, "workload.clients[1].agentic.steps[1].tool: unknown tool 'web'; valid: search");
        assertProblem(both, "workload.clients[1].agentic.steps[1].depends_on[0]: unknown step 'zz'; valid: a");
        assertProblem(problems("workflow: w\nsteps: [{id: a, type: llm_call, %s}]\n%s".formatted(LLM, TOOLS)),
                "workload.clients[1].agentic.tools.search: not used by any tool_call step");
    }

    @Test
    void rule4FanOutAtLeastTwo() {
        assertProblem(problems("""
                workflow: w
                steps:
                  - {id: a, type: llm_call, %s}
                  - {id: b, type: llm_call, depends_on: [a], fan_out: 1, %s}
                """.formatted(LLM, LLM)),
                "workload.clients[1].agentic.steps[1].fan_out: must be in [2, 100000] instances, got 1 (omit fan_out for one"
                + " instance; a pass of the workflow holds at most 100000 step instances)");
    }

    @Test
    void rule5LoopConnected() {
        assertProblem(problems("""
                workflow: w
                loop: {over: [b, c], max_iterations: 3}
                steps:
                  - {id: a, type: llm_call, %s}
                  - {id: b, type: llm_call, depends_on: [a], %s}
                  - {id: c, type: llm_call, depends_on: [a], %s}
                """.formatted(LLM, LLM, LLM)),
                "workload.clients[1].agentic.loop.over: loop steps must form a connected subgraph; not connected to 'b': c");
        assertProblem(problems("""
                workflow: w
                loop: {over: [a, x], max_iterations: 3}
                steps: [{id: a, type: llm_call, %s}]
                """.formatted(LLM)), "workload.clients[1].agentic.loop.over: unknown step 'x'; valid: a");
        assertProblem(problems("""
                workflow: w
                loop: {over: [a], max_iterations: 0}
                steps: [{id: a, type: llm_call, %s}]
                """.formatted(LLM)), "workload.clients[1].agentic.loop.max_iterations: must be in [1, 10000] iterations, got 0 (agent"
                + " frameworks stop a loop far sooner: LangChain's AgentExecutor at 15 iterations by default)");
    }

    @Test
    void rules6And7DistributionsByStepType() {
        List<String> p = problems("""
                workflow: w
                steps:
                  - {id: a, type: llm_call, input_distribution: {type: constant, params: {value: 10}}}
                  - {id: t, type: tool_call, tool: search, depends_on: [a], output_distribution: {type: constant, params: {value: 1}}}
                %s
                """.formatted(TOOLS));
        assertProblem(p, "workload.clients[1].agentic.steps[0].output_distribution: required for an llm_call step");
        assertProblem(p, "workload.clients[1].agentic.steps[1].output_distribution: not allowed on a tool_call step "
                + "(its latency and output come from its tool)");
    }

    @Test
    void rule8AccumulateOnlyInTheLoop() {
        assertProblem(problems("""
                workflow: w
                loop: {over: [a], max_iterations: 2}
                steps:
                  - {id: a, type: llm_call, %s}
                  - {id: b, type: llm_call, depends_on: [a], context_growth: accumulate, %s}
                """.formatted(LLM, LLM)), "workload.clients[1].agentic.steps[1].context_growth: accumulate is only "
                + "valid for steps inside loop.over (a)");
    }

    @Test
    void rule9AgenticExcludesConversationAndClientLengths() {
        List<String> p = Yaml.problems("""
                aggregate_rate: 1
                num_requests: 10
                clients:
                  - id: agent
                    input_distribution: {type: constant, params: {value: 10}}
                    conversation: {turns: {type: constant, params: {value: 2}}}
                    agentic: {workflow: react}
                """);
        assertProblem(p, "workload.clients[0].agentic: excludes conversation on the same client (an agentic session "
                + "already chains its requests); remove one of them");
        assertProblem(p, "workload.clients[0].input_distribution: not used by an agentic client: each llm_call step "
                + "has its own input_distribution and output_distribution");
    }
}
