package io.servesim.workload.agentic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.metrics.RequestRecord;
import io.servesim.metrics.SessionRecord;
import io.servesim.metrics.SessionSummary;
import org.junit.jupiter.api.Test;

/**
 * The four workflow shapes end to end through RunPlan, each in a deterministic variant (constant
 * lengths and tool latencies, {@link AgenticRuns#DEPLOYMENT}: every engine step 1 ms) whose session
 * metrics are derived by hand, and each built-in in its stochastic form checked for its structure.
 * Sessions arrive 1 s apart (constant arrivals at 1/s, the first at 1 s), so each runs alone on the engine.
 */
class AgenticScenariosTest {
    private static String constant(int value) {
        return "{type: constant, params: {value: " + value + "}}";
    }

    private static String llm(String id, String deps, int in, int out, String extra) {
        return "  - {id: " + id + ", type: llm_call" + (deps.isEmpty() ? "" : ", depends_on: [" + deps + "]") + extra
                + ", input_distribution: " + constant(in) + ", output_distribution: " + constant(out) + "}\n";
    }

    private static String tool(String id, String deps, String tool) {
        return "  - {id: " + id + ", type: tool_call, tool: " + tool + ", depends_on: [" + deps + "]}\n";
    }

    private static String toolSpec(String name, int latencyUs, int tokens) {
        return "  " + name + ": {latency: " + constant(latencyUs) + ", output_tokens: " + constant(tokens) + "}\n";
    }

    private static String workload(int sessions, String agentic) {
        return "aggregate_rate: 1\nnum_requests: 100000\nclients:\n  - id: agent\n    arrival: {process: constant}\n"
                + "    lifecycle: {stop_us: " + sessions * 1_000_000L + "}\n    agentic:\n" + agentic.indent(6);
    }

    @Test
    void reactLoopMatchesHandDerivation() {
        // reason 10 ms, act 5 ms, observe 5 ms per iteration, 3 iterations (max_iterations, no distribution),
        // then final-answer 20 ms: e2e = 3 x (10 + 5 + 5) + 20 = 80 ms; nothing runs in parallel, so the
        // critical path and the sum of step latencies are 80 ms too; 3 x 3 + 1 = 10 steps, 7 LLM calls,
        // 3 tool calls waiting 15 ms; every call starts on an idle engine (queued 0).
        // Prefix cache (16-token blocks): observe#0 prompt = 20 + 50 tool tokens = 70 fresh tokens. observe#1
        // = observe#0's prompt and output (75) + 70: observe#0 computed 70 + 5 - 1 = 74 tokens' KV, 4 full
        // blocks = 64 hit. observe#2 = observe#1's 145 + 5 + 70: observe#1 computed 149 -> 9 blocks = 144 hit.
        String agentic = """
                workflow: react-constant
                loop: {over: [reason, act, observe], max_iterations: 3}
                steps:
                """ + llm("reason", "", 100, 10, "") + "  - {id: act, type: tool_call, tool: web_search, depends_on: [reason]}\n"
                + llm("observe", "act", 20, 5, ", context_growth: accumulate") + llm("final-answer", "observe", 30, 20, "")
                + "tools:\n" + toolSpec("web_search", 5000, 50);
        AgenticRuns.Result res = AgenticRuns.runWorkload(workload(2, agentic));
        assertEquals(2, res.sessions().size());
        for (SessionRecord s : res.sessions()) {
            assertEquals(SessionRecord.COMPLETED, s.status());
            assertNull(s.reason());
            assertEquals(80_000, s.e2eUs());
            assertEquals(s.arrivalUs() + 80_000, s.endUs());
            assertEquals(10, s.steps());
            assertEquals(7, s.llmCalls());
            assertEquals(3, s.toolCalls());
            assertEquals(15_000, s.toolWaitUs());
            assertEquals(3, s.loopIterations());
            assertEquals(3, s.plannedLoopIterations());
            assertEquals(80_000, s.criticalPathUs());
            assertEquals(80_000, s.stepLatencySumUs());
            assertEquals(0, s.gpuQueuedUs());
            assertEquals(0.0, s.queuedFraction());
            assertEquals(64 + 144, s.prefixHitTokens());
        }
        // Steps carry their id, loop iteration and fan-out index; the request order follows the DAG.
        var first = res.requestsOf(0);
        assertEquals(7, first.size());
        assertEquals("reason", first.get(0).stepId());
        assertEquals(0, first.get(0).loopIteration());
        assertEquals(0, first.get(0).fanOutIndex());
        RequestRecord observe2 = first.stream().filter(r -> "observe".equals(r.stepId()) && r.loopIteration() == 2)
                .findFirst().orElseThrow();
        assertEquals(20 + 50 + 150, observe2.inputTokens());
        RequestRecord answer = first.get(6);
        assertEquals("final-answer", answer.stepId());
        assertEquals(-1, answer.loopIteration());
        assertEquals(60_000, answer.arrivalUs() - first.get(0).arrivalUs());
        SessionSummary sum = res.summary().sessionsByClient().get("agent");
        assertEquals(2, sum.completed());
        assertEquals(80.0, sum.e2eMs().p50());
        assertEquals(7.0, sum.meanLlmCalls());
        assertEquals(15.0, sum.meanToolWaitMs());
    }

    @Test
    void aToolResultEndingAnIterationJoinsTheNextIterationsFirstPrompt() {
        // plan, then a loop of think -> act (a tool: 50 result tokens) 3 times, then answer. act ends each iteration:
        // its result joins the next iteration's think (50 + 50 = 100 tokens in iterations 1 and 2; iteration 0 has
        // no tool result before it, 50) and, after the last iteration, answer's prompt (60 + 50 = 110).
        String agentic = """
                workflow: think-act
                loop: {over: [think, act], max_iterations: 3}
                steps:
                """ + llm("plan", "", 100, 20, "") + llm("think", "plan", 50, 10, "") + tool("act", "think", "t")
                + llm("answer", "act", 60, 15, "") + "tools:\n" + toolSpec("t", 200_000, 50);
        AgenticRuns.Result res = AgenticRuns.runWorkload(workload(1, agentic));
        var requests = res.requestsOf(0);
        assertEquals(java.util.List.of(50, 100, 100), requests.stream().filter(r -> "think".equals(r.stepId()))
                .sorted(java.util.Comparator.comparingInt(RequestRecord::loopIteration)).map(RequestRecord::inputTokens).toList());
        assertEquals(110, requests.stream().filter(r -> "answer".equals(r.stepId())).findFirst().orElseThrow().inputTokens());
        // the same with the loop-back edge written out: think depends on act of the previous iteration
        String explicit = agentic.replace("depends_on: [plan]", "depends_on: [plan, act]");
        assertEquals(java.util.List.of(50, 100, 100), AgenticRuns.runWorkload(workload(1, explicit)).requestsOf(0).stream()
                .filter(r -> "think".equals(r.stepId())).sorted(java.util.Comparator.comparingInt(RequestRecord::loopIteration))
                .map(RequestRecord::inputTokens).toList());
    }

    @Test
    void treeOfThoughtMatchesHandDerivation() {
        // decompose 10 ms -> 4 x generate (one batch, 10 ms) -> 4 x 4 evaluate (5 output tokens) -> verify
        // (code_exec, 3 ms) over all 16 -> refine 20 ms. The 4 generates finish in the same step; the first one's
        // 4 evaluates arrive and start a step at once, the other 12 arrive in the same microsecond but after
        // that step started; with async scheduling (on, as in vLLM) the step after it was formed as it started, so
        // they wait 2 ms, for the step after next: evaluates end at +25 ms (4) and +27 ms (12).
        // e2e = 10 + 10 + 7 + 3 + 20 = 50 ms; the critical path runs through a late evaluate and holds its 2 ms
        // of queueing (fraction 2/50); sum of step latencies = 10 + 4 x 10 + 4 x 5 + 12 x 7 + 3 + 20 = 177 ms;
        // GPU queueing 12 x 2 = 24 ms.
        // LLM calls: the 4-wide, 3-level tree gives 1 + 4 + 16 = 21, refine makes 22; fan-out instances 20.
        String agentic = """
                workflow: tot-constant
                steps:
                """ + llm("decompose", "", 200, 10, "") + llm("generate", "decompose", 100, 10, ", fan_out: 4")
                + llm("evaluate", "generate", 50, 5, ", fan_out: 4") + tool("verify", "evaluate", "code_exec")
                + llm("refine", "verify", 300, 20, "") + "tools:\n" + toolSpec("code_exec", 3000, 10);
        AgenticRuns.Result res = AgenticRuns.runWorkload(workload(2, agentic));
        for (SessionRecord s : res.sessions()) {
            assertEquals(SessionRecord.COMPLETED, s.status());
            assertEquals(50_000, s.e2eUs());
            assertEquals(22, s.llmCalls());
            assertEquals(23, s.steps());
            assertEquals(1, s.toolCalls());
            assertEquals(3_000, s.toolWaitUs());
            assertEquals(20, s.fanOutCompleted());
            assertEquals(20, s.fanOutPlanned());
            assertEquals(50_000, s.criticalPathUs());
            assertEquals(177_000, s.stepLatencySumUs());
            assertEquals(24_000, s.gpuQueuedUs());
            assertEquals(2_000, s.criticalPathQueuedUs());
            assertEquals(2.0 / 50, s.queuedFraction(), 1e-12);
        }
        // The 4-wide, 3-level tree alone: 21 LLM calls per session.
        for (SessionRecord s : res.sessions()) {
            assertEquals(21, res.requestsOf(s.sessionId()).stream().filter(r -> !"refine".equals(r.stepId())).count());
        }
        var evaluates = res.requestsOf(0).stream().filter(r -> "evaluate".equals(r.stepId())).toList();
        assertEquals(16, evaluates.size());
        assertEquals(java.util.stream.IntStream.range(0, 16).boxed().toList(),
                evaluates.stream().map(RequestRecord::fanOutIndex).sorted().toList());
        // refine's prompt: its 300 tokens plus the code_exec result (10)
        assertEquals(310, res.requestsOf(0).stream().filter(r -> "refine".equals(r.stepId())).findFirst().orElseThrow()
                .inputTokens());
    }

    @Test
    void forkJoinResearchMatchesHandDerivation() {
        // plan 10 ms, then three tools in parallel (2, 7 and 4 ms; 100, 200 and 300 result tokens), synthesize
        // 20 ms once the slowest returns: e2e = 10 + 7 + 20 = 37 ms; tool wait 13 ms; step latencies 10 + 13 +
        // 20 = 43 ms > critical path 37 ms (the tools overlap); synthesize's prompt 50 + 600 = 650 tokens.
        String agentic = """
                workflow: fork-join-constant
                steps:
                """ + llm("plan", "", 100, 10, "") + tool("search-web", "plan", "web_search")
                + tool("query-db", "plan", "db_query") + tool("fetch-docs", "plan", "doc_retrieval")
                + llm("synthesize", "search-web, query-db, fetch-docs", 50, 20, "")
                + "tools:\n" + toolSpec("web_search", 2000, 100) + toolSpec("db_query", 7000, 200)
                + toolSpec("doc_retrieval", 4000, 300);
        AgenticRuns.Result res = AgenticRuns.runWorkload(workload(2, agentic));
        for (SessionRecord s : res.sessions()) {
            assertEquals(SessionRecord.COMPLETED, s.status());
            assertEquals(37_000, s.e2eUs());
            assertEquals(2, s.llmCalls());
            assertEquals(3, s.toolCalls());
            assertEquals(5, s.steps());
            assertEquals(13_000, s.toolWaitUs());
            assertEquals(37_000, s.criticalPathUs());
            assertEquals(43_000, s.stepLatencySumUs());
            assertEquals(100 + 650, s.inputTokens());
            assertEquals(10 + 20, s.outputTokens());
        }
        RequestRecord synth = res.requestsOf(1).get(1);
        assertEquals("synthesize", synth.stepId());
        assertEquals(17_000, synth.arrivalUs() - res.requestsOf(1).get(0).arrivalUs());
    }

    @Test
    void toolChainMatchesHandDerivation() {
        // plan 10 ms -> fetch 1 ms -> parse 5 ms -> query 20 ms -> analyze 5 ms -> run 300 ms -> report 10 ms:
        // e2e = 351 ms, of which 321 ms waiting for tools; 4 LLM calls, 3 tool calls, no parallelism.
        String agentic = """
                workflow: chain-constant
                steps:
                """ + llm("plan", "", 100, 10, "") + tool("fetch", "plan", "http_fetch") + llm("parse", "fetch", 20, 5, "")
                + tool("query", "parse", "sql_query") + llm("analyze", "query", 20, 5, "") + tool("run", "analyze", "code_exec")
                + llm("report", "run", 40, 10, "") + "tools:\n" + toolSpec("http_fetch", 1000, 300)
                + toolSpec("sql_query", 20_000, 100) + toolSpec("code_exec", 300_000, 50);
        AgenticRuns.Result res = AgenticRuns.runWorkload(workload(2, agentic));
        for (SessionRecord s : res.sessions()) {
            assertEquals(SessionRecord.COMPLETED, s.status());
            assertEquals(351_000, s.e2eUs());
            assertEquals(321_000, s.toolWaitUs());
            assertEquals(4, s.llmCalls());
            assertEquals(3, s.toolCalls());
            assertEquals(351_000, s.criticalPathUs());
            assertEquals(351_000, s.stepLatencySumUs());
            assertEquals(100 + 320 + 120 + 90, s.inputTokens());
        }
    }

    @Test
    void builtInsRunWithTheirShape() {
        // Each built-in by name, 20 sessions 1 s apart: every session completes with its shape's counts
        // (react: 2 LLM calls per iteration + the answer; tree-of-thought: 21 in the tree + refine).
        for (String name : Workflows.names()) {
            AgenticRuns.Result res = AgenticRuns.runWorkload(workload(20, "workflow: " + name));
            assertEquals(20, res.sessions().size(), name);
            for (SessionRecord s : res.sessions()) {
                assertEquals(SessionRecord.COMPLETED, s.status(), name + " " + s);
                int expectedLlm = switch (name) {
                    case "react" -> 2 * s.loopIterations() + 1;
                    case "tree-of-thought" -> 22;
                    case "fork-join-research" -> 2;
                    case "tool-chain" -> 4;
                    default -> throw new AssertionError(name);
                };
                assertEquals(expectedLlm, s.llmCalls(), name);
                assertTrue(s.criticalPathUs() <= s.e2eUs() && s.e2eUs() > 0, name);
                if (name.equals("react")) {
                    assertTrue(s.loopIterations() >= 1 && s.loopIterations() <= 5);
                    assertEquals(s.plannedLoopIterations(), s.loopIterations());
                }
            }
            assertEquals(res.summary().count("injected"), res.requests().size());
        }
    }

    @Test
    void agenticMixExampleRuns() {
        // sweeps/workloads/agentic-mix.yaml, cut to its first 20 s: both clients' sessions run and are summarised.
        AgenticRuns.Result res = AgenticRuns.run(AgenticRuns.DEPLOYMENT + "horizon_us: 20000000\n"
                + "workload: ../sweeps/workloads/agentic-mix.yaml\n");
        var byClient = res.summary().sessionsByClient();
        assertEquals(java.util.Set.of("react-agent", "tot-solver"), byClient.keySet());
        assertTrue(byClient.get("react-agent").completed() > 5 && byClient.get("tot-solver").completed() > 3,
                byClient::toString);
        assertEquals(22.0, res.sessions().stream().filter(s -> s.clientId().equals("tot-solver")
                && s.status().equals(SessionRecord.COMPLETED)).mapToInt(SessionRecord::llmCalls).average().orElseThrow());
        assertTrue(res.sessions().stream().allMatch(s -> s.status().equals(SessionRecord.COMPLETED)
                || s.status().equals(SessionRecord.CUT_BY_HORIZON)));
        assertTrue(byClient.get("react-agent").meanQueuedFraction() >= 0);
    }
}
