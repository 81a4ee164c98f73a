package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Macro-steps ({@code engine.DecodeStretch}) change nothing: every reference case (every example
 * workload, routing, admission, priority and scheduling policy, latency model, preemption; see
 * {@code reference/cases.yaml}) runs once with them and once with {@code --set engine.macro_steps=false}
 * (one engine step per STEP event), and every request row (all columns) and the whole summary JSON
 * must be identical. The cases use steady decode stretches heavily (the single-instance default
 * config spends most of its steps in them), so a per-token difference in timing, ITLs or KV
 * allocation would show in the rows.
 */
class MacroStepEquivalenceTest {
    /** The reference cases on the vLLM core (the SGLang core has no macro-steps, nor the setting). */
    static Stream<ReferenceOutputsTest.Case> cases() throws Exception {
        return ReferenceOutputsTest.cases().filter(c -> !String.join(" ", c.args()).contains("--engine-kind sglang"));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void singleStepsGiveTheSameRows(ReferenceOutputsTest.Case c, @TempDir Path tmp) throws Exception {
        Run macro = run(c, tmp.resolve("macro.csv"));
        Run single = run(c, tmp.resolve("single.csv"), "--set", "engine.macro_steps=false");
        assertTrue(macro.rows().size() > 1, c.name() + ": no request rows");
        assertEquals(single.summary(), macro.summary(), c.name() + ": summary");
        assertEquals(single.rows().size(), macro.rows().size(), c.name() + ": request rows");
        for (int i = 0; i < single.rows().size(); i++) {
            assertEquals(single.rows().get(i), macro.rows().get(i), c.name() + ": request row " + i);
        }
    }

    private record Run(String summary, List<String> rows) {
    }

    private static Run run(ReferenceOutputsTest.Case c, Path rows, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("run"));
        args.addAll(c.args());
        args.addAll(List.of(more));
        args.addAll(List.of("--requests-out", rows.toString()));
        CliRun.Result r = CliRun.exec(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        return new Run(r.out(), Files.readAllLines(rows));
    }
}
