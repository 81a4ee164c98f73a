package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.engine.EngineConfig;
import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.SpecDecodeConfig;
import io.servesim.engine.SpecDecodeConfig.Method;
import io.servesim.engine.TokenSequence;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Speculative decoding in the engine, with hand-derived timings: every step costs b0 + b2 x decode tokens
 * ({@link LinearLatency}; the drafter's cost is {@code SpeculativeLatency}'s, not priced here), prompts of 100 tokens
 * prefill in one step.
 */
class SpeculativeDecodingTest {
    private static Request req(long id, int output, long arrivalUs) {
        return new Request(id, RequestTags.DEFAULT, TokenSequence.unique(9000 + id, 100), output, 0, arrivalUs, 0, true);
    }

    private static Runs.Result run(SpecDecodeConfig spec, LinearLatency latency, int maxModelLen, List<Request> requests) {
        EngineConfig e = new EngineConfig(256, 2048, 0, maxModelLen, 16, 10_000, true).withSpeculative(spec);
        return Runs.run(e, latency, requests);
    }

    @Test
    void everyDraftAcceptedGivesKPlusOneTokensAStep() {
        // alpha 1, k 3: the prefill step samples token 1 at 1,000; each verify step then gives 4 tokens (3 drafts + 1):
        // 5 at 2,000, 9 at 3,000, and the last step's 4 are trimmed to the 10th token at 4,000. Without speculation the
        // 10 tokens take 10 steps. TPOT (4,000 - 1,000) / 9 = 333.3 us; three ITL samples of 1,000 (one per chunk).
        LinearLatency oneMs = LinearLatency.steps(1000, 0, 0);
        Runs.Result spec = run(SpecDecodeConfig.of(Method.EAGLE, 3, 1.0, null), oneMs, 0, List.of(req(0, 10, 0)));
        Runs.Result plain = run(SpecDecodeConfig.OFF, oneMs, 0, List.of(req(0, 10, 0)));
        assertEquals(1_000, spec.byId(0).ttftUs());
        assertEquals(4_000, spec.byId(0).e2eUs());
        assertEquals(10_000, plain.byId(0).e2eUs());
        assertEquals(10, spec.byId(0).outputTokens());
        assertEquals(3000.0 / 9, spec.byId(0).meanItlUs(), 1e-9);
        assertEquals(3, spec.summary().distribution("itl_ms").count());
        assertEquals(1.0, spec.summary().distribution("itl_ms").mean(), 1e-9);
        assertEquals(4, spec.summary().count("steps"));
        // 3 verify steps of 3 drafts, all accepted (the last step's trimmed tokens were accepted too)
        assertEquals(3, spec.summary().count("spec_verify_steps"));
        assertEquals(9, spec.summary().count("spec_draft_tokens"));
        assertEquals(1.0, spec.summary().number("spec_acceptance_rate"));
        assertEquals(4.0, spec.summary().number("spec_mean_accepted_length"));
        assertEquals(0, plain.summary().count("spec_draft_tokens"));
        assertTrue(Double.isNaN(plain.summary().number("spec_acceptance_rate")));
    }

    @Test
    void nothingAcceptedCostsTheVerifyPassAndGainsNothing() {
        // alpha 0: each verify step gives 1 token, as a plain decode, but computes 1 + 3 tokens: 1,000 + 100 x 4 = 1,400
        // us against 1,100. Prefill (b2 x 0 decode tokens) 1,000; 9 decode steps: E2E 1,000 + 9 x 1,400 = 13,600
        // against 1,000 + 9 x 1,100 = 10,900; 27 drafts, none accepted, mean accepted length 1.
        LinearLatency latency = LinearLatency.steps(1000, 0, 100);
        Runs.Result spec = run(SpecDecodeConfig.of(Method.NGRAM, 3, 0.0, null), latency, 0, List.of(req(0, 10, 0)));
        Runs.Result plain = run(SpecDecodeConfig.OFF, latency, 0, List.of(req(0, 10, 0)));
        assertEquals(13_600, spec.byId(0).e2eUs());
        assertEquals(10_900, plain.byId(0).e2eUs());
        assertEquals(27, spec.summary().count("spec_draft_tokens"));
        assertEquals(0, spec.summary().count("spec_accepted_tokens"));
        assertEquals(1.0, spec.summary().number("spec_mean_accepted_length"));
    }

    @Test
    void draftsShrinkNearMaxModelLen() {
        // max_model_len 110, a 100-token prompt and 50 tokens wanted: generation stops at 110 tokens (10 generated).
        // alpha 1, k 3: prefill -> 101 tokens (computed 100); verify 3 drafts (1 + 3 <= 110 - 1 - 100) -> 105;
        // verify min(3, 110 - 2 - 104) = 3 -> 109; then min(3, 110 - 2 - 108) = 0 drafts: a plain decode -> 110, capped.
        // 4 steps, 6 draft tokens in 2 verify steps.
        Runs.Result spec = run(SpecDecodeConfig.of(Method.EAGLE, 3, 1.0, null), LinearLatency.steps(1000, 0, 0), 110,
                List.of(req(0, 50, 0)));
        assertEquals(10, spec.byId(0).outputTokens());
        assertEquals(4_000, spec.byId(0).e2eUs());
        assertEquals(2, spec.summary().count("spec_verify_steps"));
        assertEquals(6, spec.summary().count("spec_draft_tokens"));
    }

    @Test
    void aBatchCountsItsDraftsAgainstTheTokenBudget() {
        // max_num_batched_tokens 10: four decoding requests want 4 tokens each (1 + 3 drafts); the first two get 4, the
        // third the 2 left (1 + 1 draft), the fourth none this step, as vLLM's scheduler trims spec tokens to the budget.
        EngineConfig e = new EngineConfig(256, 10, 0, 0, 16, 10_000, true)
                .withSpeculative(SpecDecodeConfig.of(Method.EAGLE, 3, 1.0, null));
        List<Request> four = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            four.add(new Request(i, RequestTags.DEFAULT, TokenSequence.unique(500 + i, 2), 6, 0, 0, 0, true));
        }
        // Step 1 prefills 4 x 2 tokens (8 <= 10); step 2 verifies 3 + 3 + 1 drafts (budget 4 + 4 + 2) and skips the
        // fourth request; whatever the budget leaves out later, every request completes with all its tokens.
        Runs.Result r = Runs.run(e, LinearLatency.steps(1000, 0, 0), four);
        assertEquals(4, r.summary().count("completed"));
        for (int i = 0; i < 4; i++) {
            assertEquals(6, r.byId(i).outputTokens());
        }
        assertEquals(r.summary().count("spec_draft_tokens"), r.summary().count("spec_accepted_tokens"));
        assertEquals(1_000, r.byId(0).ttftUs());
        // request 0: tokens 1 (step 1), 5 (step 2), 6 (step 3, trimmed): E2E 3,000
        assertEquals(3_000, r.byId(0).e2eUs());
    }

    @Test
    void sameSeedSameRecordsAnotherSeedOtherAcceptances() {
        List<Runs.Result> runs = new ArrayList<>();
        for (long seed : new long[] {5, 5, 6}) {
            List<Request> requests = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                requests.add(req(i, 30 + i, i * 700L));
            }
            runs.add(run(SpecDecodeConfig.of(Method.MTP, 2, 0.7, null).seeded(seed), LinearLatency.steps(900, 3, 40), 0,
                    requests));
        }
        assertEquals(runs.get(0).records(), runs.get(1).records());
        assertEquals(runs.get(0).summary(), runs.get(1).summary());
        assertTrue(runs.get(0).summary().count("spec_accepted_tokens") != runs.get(2).summary().count("spec_accepted_tokens"));
    }
}
