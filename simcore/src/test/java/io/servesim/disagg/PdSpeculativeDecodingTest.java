package io.servesim.disagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Speculative decoding under P/D: the decode pool speculates ({@code deployment.pd.decode.engine.speculative}), the
 * prefill pool, whose stages stop at their first token, has nothing to speculate on. Requests' first tokens come from
 * the prefill pool, so TTFT is untouched; their later tokens come in verify steps of several tokens, so TPOT falls.
 */
class PdSpeculativeDecodingTest {
    private static final String[] EAGLE = {"deployment.pd.decode.engine.speculative.method=eagle",
            "deployment.pd.decode.engine.speculative.num_speculative_tokens=3",
            "deployment.pd.decode.engine.speculative.acceptance_rate=0.8"};

    @Test
    void theDecodePoolSpeculatesAndTpotFallsWhileTtftStays() {
        PdRuns.Result plain = PdRuns.run(PdRuns.BASE);
        PdRuns.Result spec = PdRuns.run(PdRuns.BASE, EAGLE);
        assertEquals(plain.summary().completed(), spec.summary().completed());
        assertEquals(plain.summary().ttftMs(), spec.summary().ttftMs());
        assertTrue(spec.summary().specDecode().draftTokens() > 0);
        // accepted / drafted with alpha 0.8 and k 3: (0.8 + 0.8^2 + 0.8^3) / 3 = 0.651
        assertEquals(0.651, spec.summary().specDecode().acceptanceRate(), 0.03);
        assertTrue(spec.summary().tpotMs().mean() < 0.8 * plain.summary().tpotMs().mean(),
                spec.summary().tpotMs().mean() + " vs " + plain.summary().tpotMs().mean());
        assertEquals(0, plain.summary().specDecode().draftTokens());
    }
}
