package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python shims ({@code scripts/openevolve_evaluator.py}, {@code scripts/gepa_adapter.py}) called by
 * {@code src/test/python/test_shims.py} with Debian's python3, against the real CLI on the test classpath: directly,
 * and as the frameworks call them, replayed from their source at the pinned releases ({@code gepa_replay.py}: GEPA
 * v0.1.4, gepa-ai/gepa @ 8b0ce6cd; {@code openevolve_replay.py}: OpenEvolve v0.2.25, codelion/openevolve @ fda1963b).
 * Neither framework is installed (the shims must not need them).
 */
class ShimsTest {
    @Test
    void theShimsMeetTheirFrameworksContracts(@TempDir Path tmp) throws Exception {
        assumeTrue(new File("/usr/bin/python3").canExecute(), "python3 is not installed");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path bin = tmp.resolve("servesim");
        Files.writeString(bin, "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java")
                + "' -XX:TieredStopAtLevel=1 -cp '" + cp + "' io.servesim.cli.Main \"$@\"\n");
        Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder pb = new ProcessBuilder("/usr/bin/python3", "src/test/python/test_shims.py").redirectErrorStream(true);
        pb.environment().put("SERVESIM_BIN", bin.toString());
        pb.environment().put("SERVESIM_EVAL_ARGS", "-c ../sweeps/configs/llama8b-h100.yaml --fitness-weights"
                + " throughput_rps:0.5,ttft_p99_ms:0.5 --set workload.num_requests=100 --num-instances 2");
        pb.environment().put("SERVESIM_STAGE1_REQUESTS", "30");
        pb.environment().put("SHIMS_DIR", Path.of("..", "scripts").toAbsolutePath().toString());
        pb.environment().put("CANDIDATE_DIR", tmp.toString());
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), output);
        assertEquals("shims ok", output.strip().lines().reduce((a, b) -> b).orElse(""), output);
    }
}
