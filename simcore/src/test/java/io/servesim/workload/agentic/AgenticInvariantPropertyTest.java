package io.servesim.workload.agentic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.metrics.RequestRecord;
import io.servesim.metrics.SessionRecord;
import io.servesim.run.SimConfigLoader;
import io.servesim.workload.GeneratorSpec;
import io.servesim.workload.Yaml;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Agentic invariants (INV-A1..A5 of the BLIS agentic specification) on random small workflows:
 * 2 to 6 steps, each depending on a random non-empty set of earlier ones (so acyclic with one
 * root), random llm_call / tool_call types, fan_out 2 or 3 on some steps, and sometimes a loop
 * over the first steps (its body then only depends on itself: connected, the entry is the root);
 * with random rates, tool latencies, horizons, max_model_len (drops) and either engine core. The run executes with
 * assertions on, so the registry's own checks run too (a slot starts once, never after a release,
 * loops stop at max_iterations, tool latency >= 0, no child before its parents); here the records
 * are checked from outside.
 */
class AgenticInvariantPropertyTest {
    @Property(tries = 40)
    void invariantsHoldOnRandomWorkflows(@ForAll long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        String agentic = randomWorkflow(rng);
        boolean horizon = rng.nextInt(3) == 0;
        boolean drops = rng.nextInt(4) == 0;
        boolean sglang = rng.nextInt(3) == 0; // the SGLang core, its radix tree sharing the sessions' contexts
        String config = AgenticRuns.DEPLOYMENT.replace("max_num_seqs: 1024", "max_num_seqs: " + (2 + rng.nextInt(64))
                + (drops ? ", max_model_len: 400" : "")).replace("max_num_batched_tokens: 200000",
                sglang ? "kind: sglang, chunked_prefill_size: 16384" : "max_num_batched_tokens: 200000")
                + "seed: " + seed + "\n"
                + (horizon ? "horizon_us: " + (200_000 + rng.nextInt(1_000_000)) + "\n" : "")
                + "workload:\n  aggregate_rate: " + (1 + rng.nextInt(40)) + "\n  num_requests: " + (20 + rng.nextInt(200))
                + "\n  clients:\n    - id: agent\n      agentic:\n" + agentic.indent(8);
        AgenticRuns.Result first = AgenticRuns.run(config);
        AgenticRuns.Result second = AgenticRuns.run(config);
        assertEquals(first.requests(), second.requests(), "INV-6");
        assertEquals(first.sessions(), second.sessions(), "INV-6");

        GeneratorSpec spec = (GeneratorSpec) SimConfigLoader.bind(Yaml.tree(config), Path.of(".")).workload();
        AgenticSpec a = spec.clients().get(0).agentic();
        check(first, a.graph(), a.loop(), horizon, config);
    }

    private static void check(AgenticRuns.Result res, WorkflowGraph g, LoopSpec loop, boolean horizon, String config) {
        var s = res.summary();
        assertEquals(s.count("injected"),
                s.count("completed") + s.count("dropped") + s.count("rejected") + s.count("unfinished"), "INV-1");
        assertEquals(s.count("injected"), res.requests().size());
        Map<Long, List<RequestRecord>> bySession = new HashMap<>();
        for (RequestRecord r : res.requests()) {
            bySession.computeIfAbsent(r.sessionId(), k -> new ArrayList<>()).add(r);
        }
        Set<Long> reported = new HashSet<>();
        for (SessionRecord sr : res.sessions()) {
            assertTrue(reported.add(sr.sessionId()), "one record per session");
            assertTrue(sr.toolWaitUs() >= 0 && sr.criticalPathUs() <= sr.stepLatencySumUs(), sr::toString);
            assertTrue(sr.loopIterations() <= sr.plannedLoopIterations()
                    && (loop == null || sr.plannedLoopIterations() <= loop.maxIterations()), "INV-A3 " + sr);
            List<RequestRecord> rs = bySession.getOrDefault(sr.sessionId(), List.of());
            assertEquals(rs.stream().filter(r -> r.status().equals(RequestRecord.COMPLETED)).count(), sr.llmCalls(), sr::toString);
            if (sr.status().equals(SessionRecord.COMPLETED)) {
                assertEquals(g.llmCalls(sr.plannedLoopIterations()), sr.llmCalls(), "INV-A4 " + sr);
                assertEquals(sr.plannedLoopIterations(), sr.loopIterations());
                assertEquals(sr.endUs() - sr.arrivalUs(), sr.e2eUs());
                assertTrue(sr.criticalPathUs() == sr.e2eUs(), sr::toString);
            } else if (!horizon) {
                assertTrue(!sr.status().equals(SessionRecord.CUT_BY_HORIZON), "cut by a horizon that does not exist " + sr);
            }
            causality(g, rs, sr);
        }
        assertEquals(bySession.keySet(), reported, "INV-A4: every session is reported");
    }

    /** INV-A1 (no child before its LLM parents complete) and INV-A2 (each step instance once). */
    private static void causality(WorkflowGraph g, List<RequestRecord> rs, SessionRecord sr) {
        Map<String, RequestRecord> byKey = new HashMap<>();
        for (RequestRecord r : rs) {
            String key = r.stepId() + "/" + r.loopIteration() + "/" + r.fanOutIndex();
            assertTrue(byKey.put(key, r) == null, "INV-A2: " + key + " injected twice in " + sr);
        }
        int lastIteration = sr.loopIterations() - 1;
        for (RequestRecord r : rs) {
            int step = g.indexOf(r.stepId());
            for (int p : g.parents(step)) {
                if (g.type(p) != StepType.LLM_CALL) {
                    continue;
                }
                int iteration = !g.inLoop(p) ? -1 : g.inLoop(step) ? r.loopIteration() : lastIteration;
                for (int pj = 0; pj < g.instances(p); pj++) {
                    if (g.waitsFor(step, r.fanOutIndex(), p, pj)) {
                        RequestRecord parent = byKey.get(g.stepId(p) + "/" + iteration + "/" + pj);
                        assertTrue(parent != null && parent.status().equals(RequestRecord.COMPLETED)
                                && parent.completionUs() <= r.arrivalUs(), "INV-A1: " + r + " before its parent " + parent);
                    }
                }
            }
            if (g.inLoop(step) && r.loopIteration() > 0) {
                for (RequestRecord q : rs) {
                    if (q.loopIteration() == r.loopIteration() - 1) {
                        assertTrue(q.completionUs() <= r.arrivalUs(), "INV-A1: iteration starts before the previous ends");
                    }
                }
            }
        }
    }

    /** A random valid workflow (see the class comment). */
    static String randomWorkflow(SplittableRandom rng) {
        int n = 2 + rng.nextInt(5);
        int loopSize = rng.nextInt(3) == 0 ? 0 : 1 + rng.nextInt(n);
        StringBuilder steps = new StringBuilder();
        StringBuilder tools = new StringBuilder();
        List<String> ids = new ArrayList<>();
        int fanned = 0;
        for (int i = 0; i < n; i++) {
            String id = "s" + i;
            ids.add(id);
            boolean tool = i > 0 && rng.nextInt(3) == 0;
            // earlier steps only: a body step (i < loopSize) thus only depends on body steps
            List<String> deps = new ArrayList<>();
            for (int p = 0; p < i; p++) {
                if (rng.nextBoolean()) {
                    deps.add(ids.get(p));
                }
            }
            if (i > 0 && deps.isEmpty()) {
                deps.add(ids.get(rng.nextInt(i)));
            }
            steps.append("  - {id: ").append(id).append(", type: ").append(tool ? "tool_call, tool: t" + i : "llm_call");
            if (!deps.isEmpty()) {
                steps.append(", depends_on: [").append(String.join(", ", deps)).append("]");
            }
            if (i > 0 && fanned < 2 && rng.nextInt(3) == 0) {
                steps.append(", fan_out: ").append(2 + rng.nextInt(2));
                fanned++;
            }
            if (!tool) {
                if (i < loopSize && rng.nextBoolean()) {
                    steps.append(", context_growth: accumulate");
                }
                steps.append(", input_distribution: {type: uniform, params: {min: 10, max: ").append(50 + rng.nextInt(400))
                        .append("}}, output_distribution: {type: exponential, params: {mean: ").append(2 + rng.nextInt(30))
                        .append(", max: 200}}");
            } else {
                tools.append("  t").append(i).append(": {latency: ")
                        .append(rng.nextBoolean() ? "{type: constant, params: {value: " + rng.nextInt(20_000) + "}}"
                                : "{type: exponential, params: {mean: " + (1 + rng.nextInt(30_000)) + "}}")
                        .append(", output_tokens: {type: constant, params: {value: ").append(1 + rng.nextInt(100)).append("}}}\n");
            }
            steps.append("}\n");
        }
        String loop = loopSize == 0 ? "" : "loop: {over: [" + String.join(", ", ids.subList(0, loopSize)) + "], max_iterations: "
                + (1 + rng.nextInt(4)) + (rng.nextBoolean() ? ", iterations: {type: uniform, params: {min: 1, max: 4}}" : "") + "}\n";
        return "workflow: random\n" + loop + "steps:\n" + steps + (tools.length() == 0 ? "" : "tools:\n" + tools);
    }
}
