package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.exit.ExitCode;
import io.servesim.fidelity.ReplayOptions;
import io.servesim.latency.BlackboxCoefficients;
import io.servesim.latency.CalibratedCoefficients;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CalibrateCommandTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int calibrate(Path run, Path file) {
        return CalibrateCommand.run(run, file, null, null, 0.5, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
    }

    @Test
    void writesCoefficientsThatReplayReads() throws Exception {
        Path run = RunDirs.tiny(Files.createDirectory(dir.resolve("run")));
        Path file = dir.resolve("fit/coeffs.yaml");
        assertEquals(0, calibrate(run, file), err.toString(StandardCharsets.UTF_8));
        String yaml = Files.readString(file);
        assertTrue(yaml.contains("GPU: RTXPRO6000"), yaml);
        assertTrue(yaml.contains("alpha_coeffs: [0.0, 0.0, 0.0]"), yaml);
        BlackboxCoefficients c = CalibratedCoefficients.read(file, "--coefficients").coefficients();
        assertTrue(c.b0() > 0 && c.b1() > 0 && c.b2() > 0, c.toString());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("fit: b0 "), out.toString(StandardCharsets.UTF_8));
        out.reset();
        assertEquals(0, ReplayRealCommand.run(run, new ReplayOptions("blackbox", null, null, null, null), file,
                dir.resolve("r.parquet"), new PrintStream(out, true, StandardCharsets.UTF_8), System.err, false));
    }

    @Test
    void anExpertParallelRunIsRefusedWithTheFieldAndTheModelsThatReplayIt() throws Exception {
        // the shipped DP 2 + EP run: blackbox coefficients price one engine's step, not a lockstep group's
        Path run = Path.of("..", "sweeps", "data", "validation", "vllm_rtxpro6000_qwen3_30b_a3b_dp2_ep");
        Path file = dir.resolve("coeffs.yaml");
        assertEquals(2, calibrate(run, file));
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.contains("meta.json engine_kwargs.enable_expert_parallel: an expert-parallel run (2 data-parallel"
                + " ranks stepping in lockstep) cannot be calibrated"), e);
        assertTrue(e.contains("--latency-model roofline` or `profiled`"), e);
        assertFalse(Files.exists(file), "nothing written");
    }

    @Test
    void theFitIsScoredOnRequestsItNeverSawAndRunUsesTheFileDirectly() throws Exception {
        Path run = RunDirs.tiny(Files.createDirectory(dir.resolve("run")));
        Path file = dir.resolve("coeffs.yaml");
        assertEquals(0, calibrate(run, file), err.toString(StandardCharsets.UTF_8));
        // 2 requests, --holdout 0.5: the fit sees the first, the report covers the second
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("out of sample: the last 1 requests"), out.toString(StandardCharsets.UTF_8));
        assertTrue(Files.readString(file).contains("# Out of sample (the last 1 requests, not fitted)"));
        Path config = dir.resolve("run.yaml");
        Files.writeString(config, """
                deployment: {model: meta-llama/llama-3.1-8b-instruct, hardware: RTXPRO6000, latency_model: blackbox, coefficients: coeffs.yaml}
                engine: {max_model_len: 1024}
                workload: {aggregate_rate: 5, num_requests: 50, input_distribution: {type: constant, params: {value: 64}},
                           output_distribution: {type: constant, params: {value: 8}}}
                """);
        ByteArrayOutputStream runOut = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        int code;
        try {
            System.setOut(new PrintStream(runOut, true, StandardCharsets.UTF_8));
            code = Main.execute("run", "-c", config.toString());
        } finally {
            System.setOut(saved);
        }
        assertEquals(0, code);
        String summary = runOut.toString(StandardCharsets.UTF_8);
        assertTrue(summary.contains("calibrated coefficients (" + file), summary);
        // the KV capacity is the calibrated run's num_gpu_blocks, from the file's total_kv_blocks
        assertTrue(summary.contains("total_kv_blocks of " + file), summary);
    }

    @Test
    void aHoldoutOutsideZeroToOneIsAFlagError() throws Exception {
        Path run = RunDirs.tiny(dir);
        assertEquals(ExitCode.CONFIG_ERROR, CalibrateCommand.run(run, dir.resolve("c.yaml"), null, null, 1.0,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), false));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--holdout: must be in [0, 1), got 1.0"), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void anIncompleteRunIsAConfigErrorNamingTheField() throws Exception {
        Path run = RunDirs.tiny(dir);
        Files.writeString(run.resolve("meta.json"), RunDirs.META.replace("\"max_num_batched_tokens\": 2048", "\"seed\": 1"));
        assertEquals(ExitCode.CONFIG_ERROR, calibrate(run, dir.resolve("c.yaml")));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("meta.json engine_kwargs.max_num_batched_tokens: required"),
                err.toString(StandardCharsets.UTF_8));
        assertTrue(Files.notExists(dir.resolve("c.yaml")));
    }
}
