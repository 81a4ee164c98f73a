package io.servesim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What {@code servesim validate} prints about a valid config: the deployment as it will run. */
class ValidateCommandTest {
    private static String validate(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        int code;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            code = Main.execute(args);
        } finally {
            System.setOut(saved);
        }
        assertEquals(0, code);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void pdConfigShowsBothPoolsAndTheLinks() {
        String out = validate("validate", "../sweeps/configs/llama8b-h100-pd.yaml", "--set", "deployment.pd.decode.hardware=A100-80GB",
                "--set", "deployment.pd.decode.replicas=3");
        assertTrue(out.contains("architecture: pd, decider always, transfers 1.0 ms + bytes at 50.0 GB/s per link (per-pair)"), out);
        assertTrue(out.contains("prefill pool: 2 x blackbox meta-llama/llama-3.1-8b-instruct on H100 TP1"), out);
        assertTrue(out.contains("decode pool: 3 x blackbox meta-llama/llama-3.1-8b-instruct on A100-80GB TP1"), out);
        assertTrue(out.contains("instances: 5,"), out);
    }

    @Test
    void autoscalePolicyIsListedOnlyWhenAutoscaling() {
        String fixed = validate("validate", "../sweeps/configs/llama8b-h100-4x.yaml");
        assertFalse(fixed.contains("autoscale"), fixed);
        assertTrue(fixed.contains("latency: blackbox"), fixed);
        String scaled = validate("validate", "../sweeps/configs/llama70b-h100-autoscaled.yaml");
        assertTrue(scaled.contains("autoscale threshold"), scaled);
    }
}
