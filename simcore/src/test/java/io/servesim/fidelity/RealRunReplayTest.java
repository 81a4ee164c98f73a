package io.servesim.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.latency.BlackboxCoefficients;
import io.servesim.latency.CalibratedCoefficients;
import io.servesim.testing.RepoFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fidelity targets on the real vLLM 0.19 run of Llama-3.1-8B on one RTX PRO 6000
 * (sweeps/data/validation/vllm_rtxpro6000_llama31_8b, from casys-kaist/LLMServingSim @ 5daddb2
 * bench/examples/RTXPRO6000/Llama-3.1-8B; see the data's PROVENANCE.md): TTFT, TPOT and E2E means within
 * 5% of the measured ones with the profiled model and with blackbox coefficients refitted on the run
 * (both fitted to this GPU), and within 10% with the roofline model under its bundled cross-GPU
 * constants (fitted with this GPU's kernels and profiled steps among others, never on the run;
 * LatencyValidationTest holds the GPU out). The roofline's steps land 2-3% short of the profile's GPU time
 * (decode -2.3%, mixed steps -2.9%), and the run's queue turns that into -9.4% on TTFT. KV capacity is derived from GPU memory, as the run records no
 * num_gpu_blocks.
 */
class RealRunReplayTest {
    private static final Path RUN = RepoFiles.realRun();
    private static RealRun run;

    @BeforeAll
    static void read() {
        run = RealRun.read(RUN);
    }

    private static void assertMeansWithin(double percent, ComparisonReport report) {
        for (String metric : new String[] {"TTFT", "TPOT", "E2E"}) {
            double diff = report.line(metric, "mean").diffPercent();
            assertTrue(Math.abs(diff) <= percent, metric + " mean " + diff + "%\n" + report.render());
        }
    }

    @Test
    void measuredMeansAreThoseLlmServingSimReports() {
        // bench/examples/RTXPRO6000/Llama-3.1-8B/validation/summary.txt: TTFT 7097.2, TPOT 32.5, E2E 28200.7 ms.
        ComparisonReport report = Replay.run(run, ReplaySetup.resolve(run, ReplayOptions.profiled().withHardware("RTXPRO6000")))
                .report();
        assertEquals(7097.2, report.line("TTFT", "mean").realMs(), 0.05);
        assertEquals(32.5, report.line("TPOT", "mean").realMs(), 0.05);
        assertEquals(28200.7, report.line("E2E", "mean").realMs(), 0.05);
        assertEquals(19755.3, report.line("TTFT", "p99").realMs(), 0.05);
        assertEquals(300, report.compared());
    }

    @Test
    void theProfiledModelMeetsTheFivePercentTargets() {
        Replay replay = Replay.run(run, ReplaySetup.resolve(run, ReplayOptions.profiled().withHardware("RTXPRO6000")));
        assertMeansWithin(5, replay.report());
        assertEquals(0, replay.summary().count("preemptions"), "KV capacity is not binding on this run");
    }

    @Test
    void theRooflineModelWithTheBundledConstantsMeetsTheTenPercentTarget() {
        // measured: TTFT -9.4%, TPOT -3.8%, E2E -5.3%
        ReplayOptions roofline = new ReplayOptions("roofline", "RTXPRO6000", null, null, null);
        Replay replay = Replay.run(run, ReplaySetup.resolve(run, roofline));
        assertMeansWithin(10, replay.report());
    }

    @Test
    void refittedBlackboxCoefficientsMeetTheFivePercentTargets(@TempDir Path dir) throws IOException {
        Calibrator.Fit fit = Calibrator.fit(run, "RTXPRO6000", null, 0);
        Path file = dir.resolve("coeffs.yaml");
        Files.writeString(file, CoefficientsFile.render(run, fit));
        BlackboxCoefficients read = CalibratedCoefficients.read(file, "--coefficients").coefficients();
        assertEquals(fit.coefficients(), read);
        Replay replay = Replay.run(run, ReplaySetup.resolve(run, ReplayOptions.blackbox(read).withHardware("RTXPRO6000")));
        assertMeansWithin(5, replay.report());
        assertTrue(fit.rmsLogError() < 0.2, fit.describe());
    }
}
