package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.servesim.exit.ExitCode;
import io.servesim.fidelity.CoefficientsFile;
import io.servesim.fidelity.ReplayOptions;
import io.servesim.latency.BlackboxCoefficients;
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
        return CalibrateCommand.run(run, file, null, null, new PrintStream(out, true, StandardCharsets.UTF_8),
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
        BlackboxCoefficients c = CoefficientsFile.read(file);
        assertTrue(c.b0() > 0 && c.b1() > 0 && c.b2() > 0, c.toString());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("fit: b0 "), out.toString(StandardCharsets.UTF_8));
        out.reset();
        assertEquals(0, ReplayRealCommand.run(run, new ReplayOptions("blackbox", null, null, null, null), file,
                dir.resolve("r.parquet"), new PrintStream(out, true, StandardCharsets.UTF_8), System.err, false));
    }

    @Test
    void anIncompleteRunIsAConfigErrorNamingTheField() throws Exception {
        Path run = RunDirs.tiny(dir);
        Files.writeString(run.resolve("meta.json"), RunDirs.META.replace("\"max_num_batched_tokens\": 2048", "\"x\": 1"));
        assertEquals(ExitCode.CONFIG_ERROR, calibrate(run, dir.resolve("c.yaml")));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("meta.json engine_kwargs.max_num_batched_tokens: required"),
                err.toString(StandardCharsets.UTF_8));
        assertTrue(Files.notExists(dir.resolve("c.yaml")));
    }
}
