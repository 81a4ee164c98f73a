package io.servesim.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.servesim.engine.Request;
import io.servesim.engine.RequestTags;
import io.servesim.engine.TokenSequence;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where servesim's metrics follow vLLM's definitions ({@code benchmarks/benchmark_serving.py}). */
class VllmParityTest {
    private static Request req(long id, int input, int output, long arrivalUs) {
        return new Request(id, RequestTags.DEFAULT, TokenSequence.unique(1000 + id, input), output, 0, arrivalUs, 0, true);
    }

    @Test
    void tpotLeavesOutOneTokenOutputs() {
        // Two requests far apart, steps of 1000 + 10/prefill token + 100/decode token us.
        // Request 0: 100-token prompt, 1 output token: TTFT 2000, no TPOT (vLLM: output_len > 1 only).
        // Request 1: 100-token prompt, 3 output tokens: prefill 2000, then two decode steps of 1100:
        // TPOT = (completion - first token) / (3 - 1) = 2200 / 2 = 1100 us. Counting request 0 as
        // 0 us would give a mean of 550 us and a p50 of 0.
        var res = Runs.run(Runs.engine(1000), LinearLatency.steps(1000, 10, 100),
                List.of(req(0, 100, 1, 0), req(1, 100, 3, 1_000_000)));
        var tpot = res.summary().tpotMs();
        assertEquals(1, tpot.count());
        assertEquals(1.1, tpot.mean(), 1e-9);
        assertEquals(1.1, tpot.p50(), 1e-9);
        assertEquals(2, res.summary().ttftMs().count());
    }
}
