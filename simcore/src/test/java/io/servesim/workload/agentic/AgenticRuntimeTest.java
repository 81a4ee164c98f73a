package io.servesim.workload.agentic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.engine.EngineConfig;
import io.servesim.metrics.RequestRecord;
import io.servesim.metrics.SessionRecord;
import io.servesim.metrics.SessionSink;
import io.servesim.run.LinearLatency;
import io.servesim.run.SimSetup;
import io.servesim.run.Simulation;
import io.servesim.workload.GeneratorSource;
import io.servesim.workload.Yaml;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How sessions end when things go wrong (drops, rejections, the horizon, num_requests), that
 * non-agentic clients are untouched, determinism, and that the registry's memory follows the active
 * sessions. Timings use {@link AgenticRuns#DEPLOYMENT} (1 ms per engine step).
 */
class AgenticRuntimeTest {
    /** reason (10 ms) -> act (tool 5 ms) -> observe (5 ms), 3 iterations, then answer (20 ms): 80 ms per session. */
    static final String REACT = """
            workflow: react-constant
            loop: {over: [reason, act, observe], max_iterations: 3}
            steps:
              - {id: reason, type: llm_call, input_distribution: {type: constant, params: {value: 100}},
                 output_distribution: {type: constant, params: {value: 10}}}
              - {id: act, type: tool_call, tool: web_search, depends_on: [reason]}
              - {id: observe, type: llm_call, depends_on: [act], context_growth: accumulate,
                 input_distribution: {type: constant, params: {value: 20}}, output_distribution: {type: constant, params: {value: 5}}}
              - {id: final-answer, type: llm_call, depends_on: [observe], input_distribution: {type: constant, params: {value: %d}},
                 output_distribution: {type: constant, params: {value: 20}}}
            tools:
              web_search: {latency: {type: constant, params: {value: 5000}}, output_tokens: {type: constant, params: {value: 50}}}
            """;

    /** Sessions every 100 ms from 100 ms on, the last sent at {@code stopUs}. */
    private static String workload(int numRequests, int answerTokens, long stopUs) {
        return "aggregate_rate: 10\nnum_requests: " + numRequests + """

                clients:
                  - id: agent
                    arrival: {process: constant}
                    lifecycle: {stop_us: %d}
                    agentic:
                """.formatted(stopUs) + REACT.formatted(answerTokens).indent(6);
    }

    @Test
    void droppedStepEndsTheSessionWithItsReason() {
        // final-answer's prompt (2000 tokens) exceeds max_model_len 1000: dropped at enqueue, session dropped.
        AgenticRuns.Result res = AgenticRuns.run(AgenticRuns.DEPLOYMENT.replace("max_num_seqs: 1024", "max_num_seqs: 1024, max_model_len: 1000")
                + "workload:\n" + workload(1000, 2000, 1_000_000).indent(2));
        assertEquals(10, res.sessions().size());
        for (SessionRecord s : res.sessions()) {
            assertEquals(SessionRecord.DROPPED, s.status());
            assertEquals("step final-answer[0]: exceeds_max_model_len", s.reason());
            assertEquals(-1, s.e2eUs());
            assertEquals(6, s.llmCalls());
            assertEquals(s.arrivalUs() + 60_000, s.endUs());
        }
        assertEquals(10, res.summary().count("dropped"));
        assertEquals(10, res.summary().sessionsByClient().get("agent").dropped());
    }

    @Test
    void droppedCandidateEndsTheSessionOnceItsSiblingsLeave() {
        // decompose (10 ms) fans out to 4 candidates of 100 to 900 prompt tokens; max_model_len 500 drops the long
        // ones at enqueue (10 ms). The session is dropped there: nothing after the candidates starts, the short
        // candidates still finish (10 ms later) and count, and the record is emitted once they have left.
        String agentic = """
                workflow: fan-out-drops
                steps:
                  - {id: decompose, type: llm_call, input_distribution: {type: constant, params: {value: 50}},
                     output_distribution: {type: constant, params: {value: 10}}}
                  - {id: candidate, type: llm_call, depends_on: [decompose], fan_out: 4,
                     input_distribution: {type: uniform, params: {min: 100, max: 900}},
                     output_distribution: {type: constant, params: {value: 10}}}
                  - {id: pick, type: llm_call, depends_on: [candidate], input_distribution: {type: constant, params: {value: 50}},
                     output_distribution: {type: constant, params: {value: 10}}}
                """;
        AgenticRuns.Result res = AgenticRuns.run(AgenticRuns.DEPLOYMENT.replace("max_num_seqs: 1024", "max_num_seqs: 1024, max_model_len: 500")
                + "workload:\n  aggregate_rate: 10\n  num_requests: 100000\n  clients:\n    - id: agent\n"
                + "      arrival: {process: constant}\n      lifecycle: {stop_us: 3000000}\n      agentic:\n" + agentic.indent(8));
        assertEquals(30, res.sessions().size());
        int dropped = 0;
        for (SessionRecord s : res.sessions()) {
            List<RequestRecord> rs = res.requestsOf(s.sessionId());
            long drops = rs.stream().filter(r -> r.status().equals(RequestRecord.DROPPED)).count();
            if (drops == 0) {
                assertEquals(SessionRecord.COMPLETED, s.status());
                assertEquals(30_000, s.e2eUs());
                continue;
            }
            dropped++;
            assertEquals(SessionRecord.DROPPED, s.status());
            assertEquals(s.arrivalUs() + 10_000, s.endUs());
            assertTrue(s.reason().matches("step candidate\\[[0-3]\\]: exceeds_max_model_len"), s.reason());
            assertEquals(1 + 4 - drops, s.llmCalls());
            assertTrue(rs.stream().noneMatch(r -> "pick".equals(r.stepId())));
        }
        assertTrue(dropped > 20, "with 4 candidates each dropped with probability 1/2, most sessions drop: " + dropped);
    }

    @Test
    void rejectedRootEndsTheSession() {
        AgenticRuns.Result res = AgenticRuns.run(AgenticRuns.DEPLOYMENT + "policies: {admission: reject-all}\nworkload:\n"
                + workload(1000, 30, 500_000).indent(2));
        assertEquals(5, res.sessions().size());
        for (SessionRecord s : res.sessions()) {
            assertEquals(SessionRecord.REJECTED, s.status());
            assertTrue(s.reason().startsWith("step reason[0] iteration 0: "), s.reason());
            assertEquals(0, s.llmCalls());
            assertEquals(s.arrivalUs(), s.endUs());
        }
        assertEquals(5, res.summary().count("rejected"));
        assertEquals(res.summary().count("injected"), res.summary().count("rejected"));
    }

    @Test
    void horizonCutsSessions() {
        // Sessions at 100 and 200 ms, 80 ms each. The second runs reason 200-210, act 210-215, observe 215-220,
        // reason 220-230, act 230-235, observe 235-240 (2 iterations done), reason 240-250. A horizon at 245 ms
        // finds that reason in flight; at 252 ms it completes, but the act after it would end at 255 ms.
        AgenticRuns.Result res = AgenticRuns.run(AgenticRuns.DEPLOYMENT + "horizon_us: 245000\nworkload:\n"
                + workload(1000, 30, 10_000_000).indent(2));
        assertEquals(2, res.sessions().size());
        SessionRecord first = res.session(0);
        assertEquals(SessionRecord.COMPLETED, first.status());
        assertEquals(80_000, first.e2eUs());
        SessionRecord cut = res.session(1);
        assertEquals(SessionRecord.CUT_BY_HORIZON, cut.status());
        assertEquals("requests in flight at the horizon", cut.reason());
        assertEquals(245_000, cut.endUs());
        assertEquals(-1, cut.e2eUs());
        assertEquals(2, cut.loopIterations());
        assertEquals(4, cut.llmCalls());
        assertEquals(1, res.summary().count("unfinished"));
        assertEquals(res.summary().count("injected"),
                res.summary().count("completed") + res.summary().count("unfinished"));

        cut = AgenticRuns.run(AgenticRuns.DEPLOYMENT + "horizon_us: 252000\nworkload:\n"
                + workload(1000, 30, 10_000_000).indent(2)).session(1);
        assertEquals(SessionRecord.CUT_BY_HORIZON, cut.status());
        assertEquals("step act[0] iteration 2 completes after the horizon", cut.reason());
        assertEquals(252_000, cut.endUs());
        assertEquals(5, cut.llmCalls());
        assertEquals(2, cut.toolCalls());
    }

    @Test
    void requestLimitCutsSessions() {
        // 5 requests. The source pulls the next session's root when the current one arrives, so the order of
        // requests is: s0 reason (100 ms), s1 reason (pulled at 100 ms, arrives at 200), s0 observe, s0 reason,
        // s0 observe; s0's third reason (140 ms) and s1's first observe (215 ms) are refused.
        AgenticRuns.Result res = AgenticRuns.runWorkload(workload(5, 30, 10_000_000));
        assertEquals(2, res.sessions().size());
        SessionRecord s0 = res.session(0);
        assertEquals(SessionRecord.CUT_BY_LIMIT, s0.status());
        assertEquals("num_requests reached before step reason[0] iteration 2", s0.reason());
        assertEquals(4, s0.llmCalls());
        assertEquals(140_000, s0.endUs());
        SessionRecord s1 = res.session(1);
        assertEquals("num_requests reached before step observe[0] iteration 0", s1.reason());
        assertEquals(1, s1.llmCalls());
        assertEquals(5, res.summary().count("injected"));
        assertEquals(5, res.summary().count("completed"));
    }

    @Test
    void nonAgenticClientsAreUntouchedAndRunsAreDeterministic() {
        String config = AgenticRuns.DEPLOYMENT + """
                workload:
                  aggregate_rate: 20
                  num_requests: 300
                  clients:
                    - {id: chat, rate_fraction: 0.5, input_distribution: {type: exponential, params: {mean: 200}},
                       output_distribution: {type: exponential, params: {mean: 20}}}
                    - {id: agent, rate_fraction: 0.5, agentic: {workflow: tree-of-thought}}
                """;
        AgenticRuns.Result a = AgenticRuns.run(config);
        AgenticRuns.Result b = AgenticRuns.run(config);
        assertEquals(a.requests(), b.requests(), "INV-6");
        assertEquals(a.sessions(), b.sessions(), "INV-6");
        assertEquals(a.summary(), b.summary(), "INV-6");
        for (RequestRecord r : a.requests()) {
            if (r.clientId().equals("chat")) {
                assertNull(r.stepId());
                assertEquals(-1, r.loopIteration());
                assertEquals(-1, r.fanOutIndex());
            } else {
                assertTrue(r.stepId() != null && r.fanOutIndex() >= 0 && r.sessionId() >= 0);
            }
        }
        assertEquals(java.util.Set.of("agent"), a.summary().sessionsByClient().keySet());
        assertTrue(a.summary().toMap().containsKey("sessions"));
        assertTrue(a.sessions().stream().anyMatch(s -> s.status().equals(SessionRecord.COMPLETED)));
        assertEquals(a.summary().count("injected"), a.requests().size());
    }

    @Test
    void registryHoldsOnlyActiveSessions() {
        // 200 sessions 100 ms apart, 80 ms each: at most two are ever open, and none is left at the end.
        var spec = Yaml.workload(workload(1_000_000, 30, 20_000_000));
        GeneratorSource source = (GeneratorSource) spec.open(7, 0);
        int[] maxActive = {0};
        List<SessionRecord> sessions = new ArrayList<>();
        SessionSink sink = s -> {
            sessions.add(s);
            maxActive[0] = Math.max(maxActive[0], source.activeSessions());
        };
        EngineConfig engine = new EngineConfig(1024, 200_000, 0, 0, 16, 200_000, true);
        new Simulation(SimSetup.single(engine, LinearLatency.steps(1000, 0, 0)), source, r -> { }, sink).run();
        assertEquals(200, sessions.size());
        assertTrue(sessions.stream().allMatch(s -> s.status().equals(SessionRecord.COMPLETED)));
        assertTrue(maxActive[0] <= 2, "active sessions " + maxActive[0]);
        assertEquals(0, source.activeSessions());
    }
}
