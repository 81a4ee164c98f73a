package io.servesim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.engine.EngineConfig;
import io.servesim.engine.KvTierConfig;
import io.servesim.metrics.RequestRecord;
import io.servesim.run.LinearLatency;
import io.servesim.run.Runs;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reasoning clients run through the engine: the first answer token's time, multi-turn sessions whose history drops the
 * reasoning tokens, single_session. The latency model is {@code 1000 + 10 x prefill tokens + 100 x decode tokens} us per
 * step, with no queueing delay and no output processing time; the engine is idle whenever a request arrives.
 */
class ReasoningTest {
    private static final String REASONER = """
            aggregate_rate: 2
            num_requests: %d
            arrival: {process: constant}
            input_distribution: {type: constant, params: {value: 200}}
            output_distribution: {type: constant, params: {value: 50}}
            reasoning:
              reason_ratio_distribution: {type: constant, params: {value: %d}}
              multi_turn: {max_rounds: 4, think_time_us: 1000000, context_growth: accumulate, single_session: true}
            """;

    private static Runs.Result run(String yaml, boolean macroSteps) {
        EngineConfig engine = new EngineConfig(256, 2048, 0, 0, 16, 100_000, 0.9, true, KvTierConfig.OFF, macroSteps, false);
        return Runs.run(engine, LinearLatency.steps(1000, 10, 100), "fcfs", "constant", Yaml.workload(yaml).open(1, 0), 0);
    }

    private static List<RequestRecord> turns(Runs.Result res) {
        return res.records().stream().sorted(Comparator.comparingInt(RequestRecord::turnIndex)).toList();
    }

    @Test
    void theFirstAnswerTokenFollowsTheReasoningTokensWithOrWithoutMacroSteps() {
        // 60% of 50 output tokens reason: 30, so token 31 is the first answer token. Turn 0's prefill of 200 tokens is
        // one step of 1000 + 10 x 200 = 3000 us giving token 1; each decode step alone is 1000 + 100 = 1100 us, so token
        // 31 comes 30 x 1100 = 33000 us after token 1: TTFT 3000 us, TTFAT 36000 us, completion 3000 + 49 x 1100.
        for (boolean macro : new boolean[] {true, false}) {
            RequestRecord first = turns(run(REASONER.formatted(1, 60), macro)).get(0);
            assertEquals(30, first.reasoningTokens());
            assertEquals(3000, first.ttftUs());
            assertEquals(36_000, first.ttfatUs());
            assertEquals(3000 + 49 * 1100, first.e2eUs());
        }
    }

    @Test
    void aFollowUpCarriesThePreviousAnswerOnlyAndHitsThePreviousPromptOnly() {
        // One session (single_session) of 4 rounds. History drops the 30 reasoning tokens: each round's prompt is the
        // previous prompt + 20 answer tokens + 200 new ones: 200, 420, 640, 860. The cache holds the previous prompt's
        // full blocks only (the answer's KV was computed after the reasoning): 12, 26 and 40 blocks of 16 = 192, 416 and
        // 640 tokens. Prefill of 200, 228, 224 and 220 tokens: TTFT 3000, 3280, 3240, 3200 us; TTFAT 33000 us later.
        Runs.Result res = run(REASONER.formatted(100, 60), true);
        List<RequestRecord> t = turns(res);
        assertEquals(4, t.size());
        assertEquals(List.of(200, 420, 640, 860), t.stream().map(RequestRecord::inputTokens).toList());
        assertEquals(List.of(0, 192, 416, 640), t.stream().map(RequestRecord::prefixHitTokens).toList());
        assertEquals(List.of(3000L, 3280L, 3240L, 3200L), t.stream().map(RequestRecord::ttftUs).toList());
        assertEquals(List.of(36_000L, 36_280L, 36_240L, 36_200L), t.stream().map(RequestRecord::ttfatUs).toList());
        for (int k = 1; k < 4; k++) {
            assertEquals(t.get(k - 1).completionUs() + 1_000_000, t.get(k).arrivalUs());
        }
        // the summary: TTFAT of the 4 reasoning requests, mean (36000 + 36280 + 36240 + 36200) / 4 us = 36.18 ms; answer
        // tokens 4 x 20 of 4 x 50 output tokens
        assertEquals(4, res.summary().distribution("ttfat_ms").count());
        assertEquals(36.18, res.summary().distribution("ttfat_ms").mean(), 1e-9);
        assertEquals(res.summary().number("output_tokens_per_s") * 20 / 50,
                res.summary().number("answer_tokens_per_s"), 1e-9);
    }

    @Test
    void withoutReasoningTheWholeOutputIsHistoryAndTheFirstTokenIsTheAnswer() {
        // reason ratio 0: prompts 200, 450, 700, 950 (as a conversation's), the previous prompt and output cached but the
        // last output token, never computed: floor(249 / 16), floor(499 / 16), floor(749 / 16) blocks = 240, 496, 736.
        List<RequestRecord> t = turns(run(REASONER.formatted(100, 0), true));
        assertEquals(List.of(200, 450, 700, 950), t.stream().map(RequestRecord::inputTokens).toList());
        assertEquals(List.of(0, 240, 496, 736), t.stream().map(RequestRecord::prefixHitTokens).toList());
        for (RequestRecord r : t) {
            assertEquals(0, r.reasoningTokens());
            assertEquals(r.ttftUs(), r.ttfatUs());
        }
    }

    @Test
    void aWholeOutputOfReasoningHasNoAnswerToken() {
        RequestRecord r = turns(run(REASONER.formatted(1, 100), true)).get(0);
        assertEquals(50, r.reasoningTokens());
        assertEquals(-1, r.firstAnswerTokenUs());
        assertEquals(-1, r.ttfatUs());
    }
}
