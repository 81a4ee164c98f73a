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
        assertEquals(plain.summary().count("completed"), spec.summary().count("completed"));
        assertEquals(plain.summary().distribution("ttft_ms"), spec.summary().distribution("ttft_ms"));
        assertTrue(spec.summary().count("spec_draft_tokens") > 0);
        // accepted / drafted with alpha 0.8 and k 3: (0.8 + 0.8^2 + 0.8^3) / 3 = 0.651
        assertEquals(0.651, spec.summary().number("spec_acceptance_rate"), 0.03);
        assertTrue(spec.summary().distribution("tpot_ms").mean() < 0.8 * plain.summary().distribution("tpot_ms").mean(),
                spec.summary().distribution("tpot_ms").mean() + " vs " + plain.summary().distribution("tpot_ms").mean());
        assertEquals(0, plain.summary().count("spec_draft_tokens"));
    }
}
