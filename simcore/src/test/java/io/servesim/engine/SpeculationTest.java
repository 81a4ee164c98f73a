package io.servesim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Speculative decoding's acceptance ({@link Speculation#accept}): the tokens a verify step gives, the per-position
 * shares, and draws that depend on the request only.
 */
class SpeculationTest {
    private static final int DRAWS = 20_000;

    /**
     * With one rate alpha a verify step of k drafts accepts A of them, A >= i with probability alpha^i (position i is
     * reached when every one before it was accepted, each with probability alpha), and gives T = A + 1 tokens, so
     * E[T] = 1 + sum_{i=1..k} P(A >= i) = sum_{i=0..k} alpha^i = (1 - alpha^(k+1)) / (1 - alpha). Over 20,000 requests'
     * steps the mean is within 5 standard errors of it (Var T = E[T^2] - E[T]^2 from the same distribution).
     */
    @Property(tries = 60)
    void aVerifyStepGivesTheExpectedTokens(@ForAll @DoubleRange(min = 0, max = 0.98) double alpha,
                                           @ForAll @IntRange(min = 1, max = 16) int k) {
        Speculation s = new Speculation(SpecDecodeConfig.of(SpecDecodeConfig.Method.EAGLE, k, alpha, null).seeded(11), 0);
        long tokens = 0;
        for (int id = 0; id < DRAWS; id++) {
            tokens += s.accept(id, 1 + id % 7, k) + 1;
        }
        double expected = (1 - Math.pow(alpha, k + 1)) / (1 - alpha);
        double second = 0;
        for (int t = 1; t <= k + 1; t++) {
            double pAtLeast = Math.pow(alpha, t - 1);
            double pExactly = t == k + 1 ? pAtLeast : pAtLeast - Math.pow(alpha, t);
            second += (double) t * t * pExactly;
        }
        double se = Math.sqrt(Math.max(0, second - expected * expected) / DRAWS);
        double mean = (double) tokens / DRAWS;
        assertTrue(Math.abs(mean - expected) <= 5 * se + 1e-9, "mean " + mean + " expected " + expected + " se " + se);
        assertEquals(DRAWS, s.verifySteps());
        assertEquals((long) DRAWS * k, s.draftTokens());
        assertEquals(tokens - DRAWS, s.acceptedTokens());
    }

    /**
     * The per-position vector as vLLM reports it, [0.8, 0.5, 0.2]: position i is accepted in a share rates[i] of the
     * verify steps (each binomial over 20,000 steps, standard error at most 0.0036, so within 0.02), conditionally
     * 0.8, 0.5 / 0.8 = 0.625 and 0.2 / 0.5 = 0.4; a step gives 1 + 0.8 + 0.5 + 0.2 = 2.5 tokens on average.
     */
    @Test
    void theSharesAcceptingEachPositionAreTheRatesGiven() {
        SpecDecodeConfig c = new SpecDecodeConfig(SpecDecodeConfig.Method.DRAFT, 3, List.of(0.8, 0.5, 0.2), "m", 3);
        Speculation s = new Speculation(c, 0);
        long[] acceptedAt = new long[3];
        for (int id = 0; id < DRAWS; id++) {
            for (int i = s.accept(id, 5, 3) - 1; i >= 0; i--) {
                acceptedAt[i]++; // a prefix: positions 0 .. accepted - 1
            }
        }
        double[] rates = {0.8, 0.5, 0.2};
        for (int i = 0; i < 3; i++) {
            assertEquals(rates[i], (double) acceptedAt[i] / DRAWS, 0.02, "position " + i);
        }
        assertEquals(2.5, 1 + (double) s.acceptedTokens() / s.verifySteps(), 0.05);
    }

    @Test
    void aRequestsDrawsDependOnItAloneNotOnWhatElseIsVerified() {
        SpecDecodeConfig c = SpecDecodeConfig.of(SpecDecodeConfig.Method.NGRAM, 4, 0.6, null).seeded(99);
        Speculation alone = new Speculation(c, 0);
        Speculation batched = new Speculation(c, 0);
        for (int step = 1; step < 200; step++) {
            for (int other = 100; other < 110; other++) {
                batched.accept(other, step, 4);
            }
            assertEquals(alone.accept(7, step, 4), batched.accept(7, step, 4), "step " + step);
        }
        Speculation otherSeed = new Speculation(SpecDecodeConfig.of(SpecDecodeConfig.Method.NGRAM, 4, 0.6, null).seeded(98), 0);
        long differ = 0;
        for (int step = 1; step < 200; step++) {
            differ += Math.abs(otherSeed.accept(7, step, 4) - new Speculation(c, 0).accept(7, step, 4));
        }
        assertTrue(differ > 0, "another seed draws other acceptances");
    }

    @Test
    void draftsStopShortOfMaxModelLen() {
        // vLLM schedules at most max_model_len - 1 - num_computed_tokens tokens: 1 + d <= 110 - 1 - computed
        Speculation s = new Speculation(SpecDecodeConfig.of(SpecDecodeConfig.Method.EAGLE, 3, 0.5, null), 110);
        assertEquals(3, s.drafts(100));
        assertEquals(3, s.drafts(105));
        assertEquals(2, s.drafts(106));
        assertEquals(0, s.drafts(108));
        assertEquals(3, new Speculation(SpecDecodeConfig.of(SpecDecodeConfig.Method.EAGLE, 3, 0.5, null), 0).drafts(1 << 30));
    }
}
