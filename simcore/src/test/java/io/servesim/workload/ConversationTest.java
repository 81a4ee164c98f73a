package io.servesim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.engine.EngineConfig;
import io.servesim.metrics.RequestRecord;
import io.servesim.run.LinearLatency;
import io.servesim.run.PolicyKind;
import io.servesim.run.Runs;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Closed-loop conversations run through the engine: follow-ups, causality, context growth, drops. */
class ConversationTest {
    private static final String CHAT = """
            aggregate_rate: 2
            num_requests: 100000
            arrival: {process: constant}
            lifecycle: {stop_us: 50000000}
            input_distribution: {type: constant, params: {value: 200}}
            output_distribution: {type: constant, params: {value: 50}}
            conversation: {probability: 1, turns: {type: constant, params: {value: 4}},
                           think_time_us: {type: constant, params: {value: 1000000}}, context_growth: %s}
            """;

    private static Runs.Result run(String yaml, EngineConfig engine) {
        return Runs.run(engine, LinearLatency.steps(1000, 10, 100), "fcfs", "constant", Yaml.workload(yaml).open(1, 0), 0);
    }

    private static Map<Long, List<RequestRecord>> bySession(Runs.Result res) {
        return res.records().stream().collect(Collectors.groupingBy(RequestRecord::sessionId, Collectors.collectingAndThen(
                Collectors.toList(), l -> l.stream().sorted(Comparator.comparingInt(RequestRecord::turnIndex)).toList())));
    }

    @Test
    void followUpsArriveAThinkTimeAfterTheirPredecessorCompletes() {
        Runs.Result res = run(CHAT.formatted("accumulate"), Runs.engine(100_000));
        // Sends every 0.5 s up to 50 s: 100 sessions of 4 turns = 400 requests (follow-ups outlive the lifecycle).
        assertEquals(400, res.summary().count("completed"));
        Map<Long, List<RequestRecord>> sessions = bySession(res);
        assertEquals(100, sessions.size());
        for (List<RequestRecord> turns : sessions.values()) {
            assertEquals(List.of(0, 1, 2, 3), turns.stream().map(RequestRecord::turnIndex).toList());
            for (int k = 1; k < turns.size(); k++) {
                RequestRecord prev = turns.get(k - 1);
                RequestRecord cur = turns.get(k);
                // Think time is exactly 1 s after the client-visible completion (no network).
                assertEquals(prev.completionUs() + 1_000_000, cur.arrivalUs());
                // accumulate: previous prompt + its 50 output tokens + 200 new tokens.
                assertEquals(prev.inputTokens() + prev.outputTokens() + 200, cur.inputTokens());
            }
        }
    }

    @Test
    void accumulatedContextHitsThePrefixCacheAndFreshContextDoesNot() {
        // Turn prompts with accumulate: 200, 450, 700, 950 tokens. A follow-up reuses the previous turn's
        // registered blocks: all full blocks of its prompt + output but the last token (never computed):
        // floor(249 / 16) + floor(499 / 16) + floor(749 / 16) = 15 + 31 + 46 blocks = 1472 of 2300 prompt
        // tokens per session, hit rate 0.64 exactly. With context_growth none every prompt is fresh: no hits.
        double accumulate = run(CHAT.formatted("accumulate"), Runs.engine(100_000)).summary().number("prefix_hit_rate");
        double none = run(CHAT.formatted("none"), Runs.engine(100_000)).summary().number("prefix_hit_rate");
        assertEquals(0.0, none);
        assertEquals(1472.0 / 2300, accumulate, 1e-12);
    }

    @Test
    void numRequestsCountsFollowUpTurns() {
        // The limit counts every request: 250 in all, the sessions running at that point end early.
        Runs.Result res = run(CHAT.formatted("none").replace("num_requests: 100000", "num_requests: 250"), Runs.engine(100_000));
        assertEquals(250, res.summary().count("injected"));
        assertTrue(bySession(res).values().stream().anyMatch(t -> t.size() < 4));
    }

    @Test
    void aDroppedTurnEndsItsSession() {
        // max_model_len 800, sessions of 6 turns: prompts of 200, 450 and 700 tokens are served, the
        // 950-token fourth turn is dropped (exceeds max_model_len), and no fifth or sixth turn follows.
        EngineConfig cfg = new EngineConfig(256, 2048, 0, 800, 16, 100_000, true);
        Runs.Result res = run(CHAT.formatted("accumulate").replace("value: 4}", "value: 6}"), cfg);
        Map<Long, List<RequestRecord>> sessions = bySession(res);
        assertEquals(100, sessions.size());
        for (List<RequestRecord> turns : sessions.values()) {
            assertEquals(4, turns.size());
            RequestRecord last = turns.get(3);
            assertEquals(RequestRecord.DROPPED, last.status());
            assertEquals(950, last.inputTokens());
        }
        assertEquals(100, res.summary().count("dropped"));
        assertEquals(res.summary().count("injected"),
                res.summary().count("completed") + res.summary().count("dropped"));
    }

    @Test
    void rejectedTurnEndsItsConversation() {
        // Admission rejects every first turn; the source learns of each rejection, so no session is left open.
        GeneratorSource source = (GeneratorSource) Yaml.workload(CHAT.formatted("accumulate")).open(1, 0);
        var setup = io.servesim.run.SimSetup.single(Runs.engine(100_000), LinearLatency.steps(1000, 10, 100))
                .withPolicies(io.servesim.run.PolicyBundle.DEFAULT.with(PolicyKind.ADMISSION, 
                        io.servesim.policy.PolicySpec.of("reject-all", "policies.admission")));
        var summary = new io.servesim.run.Simulation(setup, source, r -> { }).run();
        assertEquals(100, summary.count("rejected"));
        assertEquals(0, source.activeSessions());
    }
}
